DROP TABLE webhook_deadline_warnings;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
