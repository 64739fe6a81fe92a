-- The gates' audit trail append-only and chained (docs/efti.md "Gates" ->
-- "Audit trail"): the entry, operation, subsets served and hashes of each
-- row, its requests' index, and the per-network, per-minute count of the
-- refusals beyond its limit. Only adds tables, columns and an index.
CREATE TABLE `efti_gate_refusals` (
	`network` text NOT NULL,
	`minute` integer NOT NULL,
	`count` integer NOT NULL,
	`first_status` integer NOT NULL,
	`last_status` integer NOT NULL,
	PRIMARY KEY(`network`, `minute`)
);
--> statement-breakpoint
ALTER TABLE `efti_gate_calls` ADD `entry` text;--> statement-breakpoint
ALTER TABLE `efti_gate_calls` ADD `operation` text;--> statement-breakpoint
ALTER TABLE `efti_gate_calls` ADD `subsets_served` text;--> statement-breakpoint
ALTER TABLE `efti_gate_calls` ADD `previous_hash` text;--> statement-breakpoint
ALTER TABLE `efti_gate_calls` ADD `hash` text;--> statement-breakpoint
CREATE INDEX `efti_gate_calls_request_idx` ON `efti_gate_calls` (`request_id`);