-- Back to table CHECKs over plain columns (NOT VALID: no scan; every
-- stored value already passed the domain's check or the CHECK before it).
DROP TRIGGER games_queue_rating ON games;
DROP TRIGGER games_seats_follow ON games;

ALTER TABLE games
    ALTER COLUMN status TYPE TEXT,
    ALTER COLUMN on_deadline TYPE TEXT,
    ALTER COLUMN on_resign TYPE TEXT,
    ADD CONSTRAINT games_status_check
        CHECK (status IN ('open', 'in_progress', 'finished', 'expired')) NOT VALID,
    ADD CONSTRAINT games_on_deadline_check CHECK (on_deadline IN ('bot', 'forfeit')) NOT VALID,
    ADD CONSTRAINT games_on_resign_check CHECK (on_resign IN ('bot', 'end_game')) NOT VALID;

ALTER TABLE game_events
    DROP CONSTRAINT game_events_visible_to_own_move,
    ALTER COLUMN event_type TYPE TEXT,
    ALTER COLUMN schema_version TYPE INTEGER,
    ADD CONSTRAINT game_events_known_type CHECK (event_type IN (
        'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
        'deadline_expired', 'game_expired', 'seat_resigned', 'hint_given'
    )) NOT VALID,
    ADD CONSTRAINT game_events_known_schema_version CHECK (schema_version >= 1) NOT VALID,
    ADD CONSTRAINT game_events_visible_to_own_move
        CHECK (visible_to IS NULL OR (event_type IN ('move', 'hint_given') AND visible_to = actor_seat)) NOT VALID;

ALTER TABLE seats
    ALTER COLUMN bot_level TYPE TEXT,
    ADD CONSTRAINT seats_bot_level_check
        CHECK (bot_level IN ('random', 'sensible', 'expert')) NOT VALID;

CREATE TRIGGER games_queue_rating AFTER UPDATE OF status ON games
    FOR EACH ROW
    WHEN (NEW.status = 'finished' AND OLD.status IS DISTINCT FROM NEW.status AND NEW.rated)
    EXECUTE FUNCTION games_queue_rating();
CREATE TRIGGER games_seats_follow AFTER UPDATE OF status, to_act ON games
    FOR EACH ROW
    WHEN ((OLD.status IS DISTINCT FROM NEW.status OR OLD.to_act IS DISTINCT FROM NEW.to_act)
          AND OLD.seats_kept_at IS NOT DISTINCT FROM NEW.seats_kept_at)
    EXECUTE FUNCTION seats_follow_game();

DROP DOMAIN game_status;
DROP DOMAIN deadline_policy;
DROP DOMAIN resign_policy;
DROP DOMAIN game_event_type;
DROP DOMAIN event_schema_version;
DROP DOMAIN bot_level;
