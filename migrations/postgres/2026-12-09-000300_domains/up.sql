-- Issue 36: the single-column CHECKs of the hot tables become domains.
--
-- Why: Postgres rebuilds a table's CHECK constraints from their stored text
-- (stringToNode, then planning the expression) in every INSERT and UPDATE
-- statement that touches the table, and evaluates all of them on every
-- updated row, whichever columns the UPDATE sets. A domain's constraints
-- are parsed once per backend (the type cache) and checked only when a
-- value is assigned to a column of that type: a move's UPDATE of `games`,
-- which never sets `status` mid-game, no longer checks it.
--
-- How, without rewriting or scanning a large table (the log): the column
-- first becomes a domain without constraints (binary-coercible to text or
-- integer, so no rewrite and the indexes are kept), then the domain gets
-- its CHECK as NOT VALID (no scan of the rows already stored; new values
-- are checked). The table CHECK is dropped first: a validated CHECK on an
-- altered column would be re-added and re-checked by a full scan. All in
-- the migration's transaction, so no write sees a moment without a check.
--
-- What stays a table CHECK: the ones over two columns
-- (`games_hints_never_rated`, `game_events_visible_to_own_move`), which a
-- domain cannot express.

CREATE DOMAIN game_status AS TEXT;
CREATE DOMAIN deadline_policy AS TEXT;
CREATE DOMAIN resign_policy AS TEXT;
CREATE DOMAIN game_event_type AS TEXT;
CREATE DOMAIN event_schema_version AS INTEGER;
CREATE DOMAIN bot_level AS TEXT;

-- A column used in a trigger's definition cannot change type: the two
-- triggers on games.status are dropped and made again, unchanged.
DROP TRIGGER games_queue_rating ON games;
DROP TRIGGER games_seats_follow ON games;

ALTER TABLE games
    DROP CONSTRAINT games_status_check,
    DROP CONSTRAINT games_on_deadline_check,
    DROP CONSTRAINT games_on_resign_check,
    ALTER COLUMN status TYPE game_status,
    ALTER COLUMN on_deadline TYPE deadline_policy,
    ALTER COLUMN on_resign TYPE resign_policy;

-- The CHECK over visible_to and event_type would be re-added by the type
-- change as it is: scanned again if someone had validated it. It is made
-- again here, NOT VALID and unchanged, so the log is never read.
ALTER TABLE game_events
    DROP CONSTRAINT game_events_known_type,
    DROP CONSTRAINT game_events_known_schema_version,
    DROP CONSTRAINT game_events_visible_to_own_move,
    ALTER COLUMN event_type TYPE game_event_type,
    ALTER COLUMN schema_version TYPE event_schema_version,
    ADD CONSTRAINT game_events_visible_to_own_move
        CHECK (visible_to IS NULL OR (event_type IN ('move', 'hint_given') AND visible_to = actor_seat)) NOT VALID;

ALTER TABLE seats
    DROP CONSTRAINT seats_bot_level_check,
    ALTER COLUMN bot_level TYPE bot_level;

CREATE TRIGGER games_queue_rating AFTER UPDATE OF status ON games
    FOR EACH ROW
    WHEN (NEW.status = 'finished' AND OLD.status IS DISTINCT FROM NEW.status AND NEW.rated)
    EXECUTE FUNCTION games_queue_rating();
CREATE TRIGGER games_seats_follow AFTER UPDATE OF status, to_act ON games
    FOR EACH ROW
    WHEN ((OLD.status IS DISTINCT FROM NEW.status OR OLD.to_act IS DISTINCT FROM NEW.to_act)
          AND OLD.seats_kept_at IS NOT DISTINCT FROM NEW.seats_kept_at)
    EXECUTE FUNCTION seats_follow_game();

-- The same vocabularies as the table CHECKs they replace (the newest of
-- each: expiry, resign_rematch, hints, bot_levels).
ALTER DOMAIN game_status ADD CONSTRAINT game_status_known
    CHECK (VALUE IN ('open', 'in_progress', 'finished', 'expired')) NOT VALID;
ALTER DOMAIN deadline_policy ADD CONSTRAINT deadline_policy_known
    CHECK (VALUE IN ('bot', 'forfeit')) NOT VALID;
ALTER DOMAIN resign_policy ADD CONSTRAINT resign_policy_known
    CHECK (VALUE IN ('bot', 'end_game')) NOT VALID;
ALTER DOMAIN game_event_type ADD CONSTRAINT game_event_type_known CHECK (VALUE IN (
    'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
    'deadline_expired', 'game_expired', 'seat_resigned', 'hint_given'
)) NOT VALID;
ALTER DOMAIN event_schema_version ADD CONSTRAINT event_schema_version_known
    CHECK (VALUE >= 1) NOT VALID;
ALTER DOMAIN bot_level ADD CONSTRAINT bot_level_known
    CHECK (VALUE IN ('random', 'sensible', 'expert')) NOT VALID;
