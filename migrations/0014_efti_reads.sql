-- A document's eFTI reads in its audit trail (docs/efti.md "Gates"): a
-- gate's read and its owner's exports (efti_reads, in the document's shard),
-- and how a document.accessed event's access came (accessed_via: null is
-- qr). Only adds a table and columns.
CREATE TABLE `efti_reads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_uuid` text NOT NULL,
	`type` text NOT NULL,
	`dataset_id` text,
	`gate` text,
	`credential_id` text,
	`request_id` text NOT NULL,
	`occurred_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `efti_reads_document_idx` ON `efti_reads` (`document_uuid`,`occurred_at`);--> statement-breakpoint
ALTER TABLE `event_outbox` ADD `accessed_via` text;--> statement-breakpoint
ALTER TABLE `events` ADD `accessed_via` text;