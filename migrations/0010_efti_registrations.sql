-- The eFTI gate's registrations (docs/efti.md "Registration with the gate"): only adds a table.
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
CREATE INDEX `efti_registrations_sent_idx` ON `efti_registrations` (`sent_at`) WHERE "efti_registrations"."sent_at" IS NOT NULL;