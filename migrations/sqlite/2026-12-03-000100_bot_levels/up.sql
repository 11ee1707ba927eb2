-- Issue 17 item 3: bot levels. The level the server plays a seat at when
-- it is a bot seat or on autoplay (`random`, `sensible`, `expert`;
-- docs/bots.md). Existing seats were all played by the sensible bot.
ALTER TABLE seats ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'sensible'
    CHECK (bot_level IN ('random', 'sensible', 'expert'));
