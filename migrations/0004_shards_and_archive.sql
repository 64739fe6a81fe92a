-- Sharding and archiving (reviewed by hand, not as generated):
-- * documents, audit_events and reference_reservations are rebuilt without
--   foreign keys, since their rows may now live in different databases;
--   children first, so that dropping a parent never deletes or orphans rows;
--   defer_foreign_keys, because D1 ignores foreign_keys=OFF;
-- * documents.data becomes nullable (the archiver empties it), archived_at
--   is new, pdf_object_key goes (it is documents/{uuid}.pdf);
-- * the list moves to document_summaries, filled here from the documents
--   that are not deleted (the upgrade script moves them to their home shard).
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `document_summaries` (
	`uuid` text PRIMARY KEY NOT NULL,
	`credential_id` text NOT NULL,
	`reference` text,
	`created_at` integer NOT NULL,
	`transport_date` text NOT NULL,
	`rectifies_uuid` text
);
--> statement-breakpoint
CREATE INDEX `document_summaries_list_idx` ON `document_summaries` (`credential_id`,"created_at" DESC,"uuid" DESC,`transport_date`);--> statement-breakpoint
CREATE INDEX `document_summaries_created_at_idx` ON `document_summaries` (`created_at`);--> statement-breakpoint
CREATE TABLE `pending_deletion_marks` (
	`document_uuid` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pending_deletion_marks_created_at_idx` ON `pending_deletion_marks` (`created_at`);--> statement-breakpoint
CREATE TABLE `__new_audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_uuid` text NOT NULL,
	`type` text NOT NULL,
	`credential_id` text,
	`request_id` text NOT NULL,
	`occurred_at` integer NOT NULL,
	CONSTRAINT "audit_events_type_check" CHECK("__new_audit_events"."type" IN ('issued', 'retried', 'rectified', 'deleted', 'qr_accessed', 'pdf_downloaded'))
);
--> statement-breakpoint
INSERT INTO `__new_audit_events`("id", "document_uuid", "type", "credential_id", "request_id", "occurred_at") SELECT "id", "document_uuid", "type", "credential_id", "request_id", "occurred_at" FROM `audit_events`;--> statement-breakpoint
DROP TABLE `audit_events`;--> statement-breakpoint
ALTER TABLE `__new_audit_events` RENAME TO `audit_events`;--> statement-breakpoint
CREATE INDEX `audit_events_document_idx` ON `audit_events` (`document_uuid`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `__new_reference_reservations` (
	`organization_id` text NOT NULL,
	`environment` text NOT NULL,
	`reference` text NOT NULL,
	`document_uuid` text NOT NULL,
	`credential_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `environment`, `reference`)
);
--> statement-breakpoint
INSERT INTO `__new_reference_reservations`("organization_id", "environment", "reference", "document_uuid", "credential_id", "created_at") SELECT "organization_id", "environment", "reference", "document_uuid", "credential_id", "created_at" FROM `reference_reservations`;--> statement-breakpoint
DROP TABLE `reference_reservations`;--> statement-breakpoint
ALTER TABLE `__new_reference_reservations` RENAME TO `reference_reservations`;--> statement-breakpoint
CREATE UNIQUE INDEX `reference_reservations_document_idx` ON `reference_reservations` (`document_uuid`);--> statement-breakpoint
CREATE TABLE `__new_documents` (
	`uuid` text PRIMARY KEY NOT NULL,
	`credential_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`environment` text NOT NULL,
	`reference` text,
	`created_at` integer NOT NULL,
	`transport_date` text NOT NULL,
	`rectifies_uuid` text,
	`rectified_by_uuid` text,
	`deleted_at` integer,
	`delete_reason` text,
	`first_qr_access_at` integer,
	`data` text,
	`metadata` text,
	`request_hash` text NOT NULL,
	`document_locale` text NOT NULL,
	`qr_key_version` text NOT NULL,
	`pdf_sha256` text NOT NULL,
	`pdf_size_bytes` integer NOT NULL,
	`pdf_pages` integer NOT NULL,
	`expires_at` integer,
	`archived_at` integer,
	CONSTRAINT "documents_environment_check" CHECK("__new_documents"."environment" IN ('test', 'live', 'demo'))
);
--> statement-breakpoint
INSERT INTO `__new_documents`("uuid", "credential_id", "organization_id", "environment", "reference", "created_at", "transport_date", "rectifies_uuid", "rectified_by_uuid", "deleted_at", "delete_reason", "first_qr_access_at", "data", "metadata", "request_hash", "document_locale", "qr_key_version", "pdf_sha256", "pdf_size_bytes", "pdf_pages", "expires_at", "archived_at") SELECT "uuid", "credential_id", "organization_id", "environment", "reference", "created_at", "transport_date", "rectifies_uuid", "rectified_by_uuid", "deleted_at", "delete_reason", "first_qr_access_at", "data", "metadata", "request_hash", "document_locale", "qr_key_version", "pdf_sha256", "pdf_size_bytes", "pdf_pages", "expires_at", NULL FROM `documents`;--> statement-breakpoint
DROP TABLE `documents`;--> statement-breakpoint
ALTER TABLE `__new_documents` RENAME TO `documents`;--> statement-breakpoint
CREATE UNIQUE INDEX `documents_rectifies_unique` ON `documents` (`rectifies_uuid`);--> statement-breakpoint
CREATE INDEX `documents_expires_at_idx` ON `documents` (`expires_at`) WHERE "documents"."expires_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `documents_hot_idx` ON `documents` (`created_at`) WHERE "documents"."archived_at" IS NULL;--> statement-breakpoint
INSERT INTO `document_summaries`("uuid", "credential_id", "reference", "created_at", "transport_date", "rectifies_uuid") SELECT "uuid", "credential_id", "reference", "created_at", "transport_date", "rectifies_uuid" FROM `documents` WHERE "deleted_at" IS NULL;
