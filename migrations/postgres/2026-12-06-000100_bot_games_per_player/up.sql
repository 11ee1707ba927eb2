-- BOT_GAMES_PER_PLAYER: a new game with an expert bot seat, or with bots
-- only, counts its creator's open and running games of that sort in the
-- transaction that inserts it. This index finds a creator's open and
-- running games; a move leaves `status` (and `created_by`) alone, so its
-- update of the row stays HOT (2026-12-03-000200_hot_game_updates).
CREATE INDEX games_creator_running ON games (created_by)
    WHERE status IN ('open', 'in_progress');
