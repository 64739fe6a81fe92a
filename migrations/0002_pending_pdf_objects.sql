CREATE TABLE `pending_pdf_objects` (
	`object_key` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pending_pdf_objects_created_at_idx` ON `pending_pdf_objects` (`created_at`);