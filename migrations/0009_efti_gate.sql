-- The eFTI gates (docs/efti.md "Gates"): their audit trail (DB_0) and their
-- follow-up messages (the document's shard), and the follow-up event's
-- columns on the events. Only adds tables and columns.
CREATE TABLE `efti_follow_ups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` text NOT NULL,
	`document_uuid` text NOT NULL,
	`shipment` integer NOT NULL,
	`message_hash` text NOT NULL,
	`message` text NOT NULL,
	`gate` text NOT NULL,
	`request_id` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `efti_follow_ups_message_idx` ON `efti_follow_ups` (`dataset_id`,`message_hash`);--> statement-breakpoint
CREATE INDEX `efti_follow_ups_document_idx` ON `efti_follow_ups` (`document_uuid`);--> statement-breakpoint
CREATE TABLE `efti_gate_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text NOT NULL,
	`dataset_id` text NOT NULL,
	`subsets` text NOT NULL,
	`gate` text,
	`client_ip` text NOT NULL,
	`status` integer,
	`started_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `efti_gate_calls_started_at_idx` ON `efti_gate_calls` (`started_at`);--> statement-breakpoint
CREATE INDEX `efti_gate_calls_dataset_idx` ON `efti_gate_calls` (`dataset_id`,`id`);--> statement-breakpoint
ALTER TABLE `event_outbox` ADD `dataset_id` text;--> statement-breakpoint
ALTER TABLE `event_outbox` ADD `shipment` integer;--> statement-breakpoint
ALTER TABLE `event_outbox` ADD `message` text;--> statement-breakpoint
ALTER TABLE `events` ADD `dataset_id` text;--> statement-breakpoint
ALTER TABLE `events` ADD `shipment` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `message` text;