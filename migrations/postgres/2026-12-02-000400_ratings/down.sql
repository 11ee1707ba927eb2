DROP TABLE rating_changes;
DROP TABLE ratings;
DROP TRIGGER games_queue_rating ON games;
DROP FUNCTION games_queue_rating();
DROP TABLE rating_queue;
ALTER TABLE games DROP COLUMN rated;
