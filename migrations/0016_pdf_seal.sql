-- Each document's seal (docs/pdf.md "The seal"): its level, certificate
-- subject and timestamp as the result's `pdf.seal` says them, JSON; null for a
-- document issued before PDFs were sealed. Only adds a column.
ALTER TABLE `documents` ADD `pdf_seal` text;
