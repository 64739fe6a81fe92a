-- A redelivery restarts a delivery's retries (docs/webhooks.md "Deliveries"):
-- when they began, null for the delivery's creation. Only adds a column.
ALTER TABLE `webhook_deliveries` ADD `retrying_since` integer;