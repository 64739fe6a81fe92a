CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`document_uuid` text NOT NULL,
	`type` text NOT NULL,
	`credential_id` text,
	`request_id` text NOT NULL,
	`occurred_at` integer NOT NULL,
	FOREIGN KEY (`document_uuid`) REFERENCES `documents`(`uuid`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "audit_events_type_check" CHECK("audit_events"."type" IN ('issued', 'retried', 'rectified', 'deleted', 'qr_accessed', 'pdf_downloaded'))
);
--> statement-breakpoint
CREATE INDEX `audit_events_document_idx` ON `audit_events` (`document_uuid`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `credentials` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`environment` text NOT NULL,
	`key_hash` text NOT NULL,
	`key_prefix` text NOT NULL,
	`key_last_four` text NOT NULL,
	`allowed_ips` text DEFAULT '[]' NOT NULL,
	`rate_limit_per_minute` integer,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	`expires_at` integer,
	`requester_ip` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "credentials_environment_check" CHECK("credentials"."environment" IN ('test', 'live', 'demo'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credentials_key_hash_unique` ON `credentials` (`key_hash`);--> statement-breakpoint
CREATE INDEX `credentials_organization_idx` ON `credentials` (`organization_id`);--> statement-breakpoint
CREATE INDEX `credentials_expires_at_idx` ON `credentials` (`expires_at`);--> statement-breakpoint
CREATE TABLE `documents` (
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
	`data` text NOT NULL,
	`metadata` text,
	`request_hash` text NOT NULL,
	`document_locale` text NOT NULL,
	`qr_key_version` text NOT NULL,
	`pdf_object_key` text NOT NULL,
	`pdf_sha256` text NOT NULL,
	`pdf_size_bytes` integer NOT NULL,
	`pdf_pages` integer NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`credential_id`) REFERENCES `credentials`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "documents_environment_check" CHECK("documents"."environment" IN ('test', 'live', 'demo'))
);
--> statement-breakpoint
CREATE INDEX `documents_list_idx` ON `documents` (`credential_id`,"created_at" DESC,"uuid" DESC);--> statement-breakpoint
CREATE INDEX `documents_reference_idx` ON `documents` (`organization_id`,`environment`,`reference`);--> statement-breakpoint
CREATE INDEX `documents_rectifies_idx` ON `documents` (`rectifies_uuid`);--> statement-breakpoint
CREATE INDEX `documents_expires_at_idx` ON `documents` (`expires_at`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`document_locale` text DEFAULT 'es' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_name_unique` ON `organizations` (`name`);--> statement-breakpoint
CREATE TABLE `reference_reservations` (
	`organization_id` text NOT NULL,
	`environment` text NOT NULL,
	`reference` text NOT NULL,
	`document_uuid` text NOT NULL,
	`credential_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`organization_id`, `environment`, `reference`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`document_uuid`) REFERENCES `documents`(`uuid`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`credential_id`) REFERENCES `credentials`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reference_reservations_document_idx` ON `reference_reservations` (`document_uuid`);