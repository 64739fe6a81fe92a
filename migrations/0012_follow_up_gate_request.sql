-- A gate's follow-up keeps the gate's own id of the request (docs/efti.md
-- "Gates"): a retry that carries it is the same message. Only adds a column.
ALTER TABLE `efti_follow_ups` ADD `gate_request_id` text;
