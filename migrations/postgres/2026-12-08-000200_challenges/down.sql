DELETE FROM webhook_deliveries WHERE event_type = 'challenge';
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_type_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_type_check
    CHECK (event_type IN ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat',
                          'test', 'seek_matched'));
UPDATE webhook_endpoints SET events = events & 63 WHERE events >= 64;
DELETE FROM webhook_endpoints WHERE events = 0;
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_events_check;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_events_check
    CHECK (events > 0 AND events < 64);
DROP TABLE player_settings;
DROP TABLE challenge_players;
DROP TABLE challenges;
