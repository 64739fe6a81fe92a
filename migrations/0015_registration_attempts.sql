-- A registration's attempts (docs/efti.md "Registration with the gate"): one
-- chain a row, its next attempt's time honoured by the queue and the cron,
-- the gate's last status, and when a 4xx parked it. Only adds columns and an
-- index.
ALTER TABLE `efti_registrations` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `efti_registrations` ADD `next_attempt_at` integer;--> statement-breakpoint
ALTER TABLE `efti_registrations` ADD `last_status` integer;--> statement-breakpoint
ALTER TABLE `efti_registrations` ADD `parked_at` integer;--> statement-breakpoint
CREATE INDEX `efti_registrations_parked_idx` ON `efti_registrations` (`parked_at`) WHERE "efti_registrations"."parked_at" IS NOT NULL;