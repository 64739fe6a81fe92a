DROP INDEX `documents_rectifies_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `documents_rectifies_unique` ON `documents` (`rectifies_uuid`);