CREATE INDEX games_status_updated ON games (status, updated_at);
