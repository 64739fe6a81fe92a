-- A demo session's documents through an index (reviewed by hand: it only
-- adds). The demo's limit and purge look them up by credential in shard 0,
-- among every other document of its bucket; partial, so it holds only the
-- demo documents, which the purge removes.
CREATE INDEX `documents_demo_credential_idx` ON `documents` (`credential_id`) WHERE "documents"."environment" = 'demo';
