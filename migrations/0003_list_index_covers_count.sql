DROP INDEX `documents_list_idx`;--> statement-breakpoint
CREATE INDEX `documents_list_idx` ON `documents` (`credential_id`,`deleted_at`,"created_at" DESC,"uuid" DESC,`transport_date`);