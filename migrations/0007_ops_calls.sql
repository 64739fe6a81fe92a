-- The audit trail of the operations API (docs/operations.md): only adds a table.
CREATE TABLE `ops_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text NOT NULL,
	`operation` text NOT NULL,
	`client_ip` text NOT NULL,
	`key_version` text,
	`status` integer,
	`started_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `ops_calls_started_at_idx` ON `ops_calls` (`started_at`);