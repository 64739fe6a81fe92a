-- eFTI (docs/efti.md): the gates' audit trail (DB_0), their follow-up messages
-- and the registrations with the gate (the document's shard), and the columns
-- of the follow-up event. Only adds tables and columns.
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
	`gate_request_id` text,
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
CREATE TABLE `efti_registrations` (
	`id` text PRIMARY KEY NOT NULL,
	`dataset_id` text NOT NULL,
	`document_uuid` text NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `efti_registrations_unsent_idx` ON `efti_registrations` (`created_at`) WHERE "efti_registrations"."sent_at" IS NULL;--> statement-breakpoint
CREATE INDEX `efti_registrations_document_idx` ON `efti_registrations` (`document_uuid`) WHERE "efti_registrations"."sent_at" IS NULL;--> statement-breakpoint
CREATE INDEX `efti_registrations_sent_idx` ON `efti_registrations` (`sent_at`) WHERE "efti_registrations"."sent_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `event_outbox` ADD `dataset_id` text;--> statement-breakpoint
ALTER TABLE `event_outbox` ADD `shipment` integer;--> statement-breakpoint
ALTER TABLE `event_outbox` ADD `message` text;--> statement-breakpoint
ALTER TABLE `events` ADD `dataset_id` text;--> statement-breakpoint
ALTER TABLE `events` ADD `shipment` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `message` text;