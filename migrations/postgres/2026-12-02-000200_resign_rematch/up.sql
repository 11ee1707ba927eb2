-- Issue 16, items 2 and 3: resign and rematch.
-- What a resignation does, set at creation like on_deadline: `bot` (the
-- bot plays the seat to the end, the seat forfeited) or `end_game` (the
-- game ends at once, the resigning side forfeited).
ALTER TABLE games ADD COLUMN on_resign TEXT NOT NULL DEFAULT 'bot'
    CONSTRAINT games_on_resign_check CHECK (on_resign IN ('bot', 'end_game'));
-- A series: every game after the first names the first (`series_id`) and
-- the game it is the rematch of (`previous_game_id`). A game has at most
-- one next game: the unique index makes racing rematch calls create one.
ALTER TABLE games ADD COLUMN series_id TEXT REFERENCES games (id);
ALTER TABLE games ADD COLUMN previous_game_id TEXT REFERENCES games (id);
CREATE UNIQUE INDEX games_previous_game ON games (previous_game_id)
    WHERE previous_game_id IS NOT NULL;
CREATE INDEX games_series ON games (series_id, created_at) WHERE series_id IS NOT NULL;
-- A rematch's human seat is reserved for the player who held it: only
-- that player may join it.
ALTER TABLE seats ADD COLUMN invited_player_id TEXT REFERENCES players (id);
CREATE INDEX seats_invited_player ON seats (invited_player_id)
    WHERE invited_player_id IS NOT NULL;

ALTER TABLE game_events DROP CONSTRAINT game_events_known_type;
ALTER TABLE game_events ADD CONSTRAINT game_events_known_type CHECK (event_type IN (
    'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
    'deadline_expired', 'game_expired', 'seat_resigned'
));
