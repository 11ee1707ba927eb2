-- Issue 35, point 3: hints in unrated games. Whether a game's seated
-- players may ask the expert what it would play (set at creation; never
-- with `rated`: a rated game is refused hints at creation, and a CHECK
-- holds it here too).
ALTER TABLE games ADD COLUMN hints_allowed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD CONSTRAINT games_hints_never_rated CHECK (NOT (hints_allowed AND rated));

-- Every hint given is a `hint_given` event, private to the seat that asked
-- while the game runs (its suggested move is that seat's own business,
-- like its hand): the log's vocabulary and the private-event rule widen.
ALTER TABLE game_events DROP CONSTRAINT game_events_known_type;
ALTER TABLE game_events ADD CONSTRAINT game_events_known_type CHECK (event_type IN (
    'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
    'deadline_expired', 'game_expired', 'seat_resigned', 'hint_given'
));
ALTER TABLE game_events DROP CONSTRAINT game_events_visible_to_own_move;
ALTER TABLE game_events ADD CONSTRAINT game_events_visible_to_own_move
    CHECK (visible_to IS NULL OR (event_type IN ('move', 'hint_given') AND visible_to = actor_seat));
