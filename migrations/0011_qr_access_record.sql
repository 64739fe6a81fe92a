-- When a document's QR access was last written (docs/api.md, Events): later
-- accesses are written at most once a minute. Only adds a column.
ALTER TABLE `documents` ADD `last_qr_access_at` integer;
