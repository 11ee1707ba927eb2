DELETE FROM webhook_deliveries WHERE event_type = 'seek_matched';
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_type_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_type_check
    CHECK (event_type IN ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat',
                          'test'));
DROP TABLE seek_queues;
DROP TABLE seeks;
