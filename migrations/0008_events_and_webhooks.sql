-- Events and webhooks (docs/webhooks.md): only adds tables.
CREATE TABLE `event_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`credential_id` text NOT NULL,
	`environment` text NOT NULL,
	`created_at` integer NOT NULL,
	`document_uuid` text,
	`reference` text,
	`rectifies_uuid` text,
	`document_created_at` integer,
	`transport_date` text,
	`first_access` integer,
	`endpoint_id` text,
	`relayed_at` integer
);
--> statement-breakpoint
CREATE INDEX `event_outbox_unrelayed_idx` ON `event_outbox` (`created_at`) WHERE "event_outbox"."relayed_at" IS NULL;--> statement-breakpoint
CREATE INDEX `event_outbox_created_at_idx` ON `event_outbox` (`created_at`);--> statement-breakpoint
CREATE INDEX `event_outbox_document_idx` ON `event_outbox` (`document_uuid`,`type`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`credential_id` text NOT NULL,
	`environment` text NOT NULL,
	`created_at` integer NOT NULL,
	`document_uuid` text,
	`reference` text,
	`rectifies_uuid` text,
	`document_created_at` integer,
	`transport_date` text,
	`first_access` integer,
	`endpoint_id` text
);
--> statement-breakpoint
CREATE INDEX `events_list_idx` ON `events` (`credential_id`,"created_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX `events_type_idx` ON `events` (`credential_id`,`type`,"created_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX `events_document_idx` ON `events` (`credential_id`,`document_uuid`,"created_at" DESC,"id" DESC);--> statement-breakpoint
CREATE INDEX `events_created_at_idx` ON `events` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`attempted_at` integer NOT NULL,
	`status_code` integer,
	`error` text,
	`duration_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_event_idx` ON `webhook_attempts` (`event_id`,`attempted_at`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_attempted_at_idx` ON `webhook_attempts` (`attempted_at`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`event_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`credential_id` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`event_id`, `endpoint_id`)
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`) WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`) WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created_at_idx` ON `webhook_deliveries` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`credential_id` text NOT NULL,
	`url` text NOT NULL,
	`event_types` text NOT NULL,
	`description` text,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`failing_since` integer,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_credential_idx` ON `webhook_endpoints` (`credential_id`);