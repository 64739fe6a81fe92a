import * as z from "zod";
import type { DocumentedErrorStatus } from "../../error-responses";

// What the eFTI platform interface for gates (/efti/v0, docs/efti.md
// "Gates") shares: its path parameter, its security and its refusals. It is
// the EU reference implementation's `platform-api-for-gate.yaml` (vendored
// in vendor/efti/), not described by either of the service's OpenAPI
// documents; its errors are the service's error body with its own codes.

/**
 * A dataset id in the path, as a gate sends it: a UUID (any case, read in
 * lower case); one that names no consignment a gate may see is a 404.
 */
export const gateDatasetPath = z.object({
  datasetId: z
    .string()
    .regex(
      /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    )
    .transform((id) => id.toLowerCase()),
});

/** A gate's key, `Authorization: Bearer <base64 of a GATE_KEYRING key>`. */
export const GATE_KEY = [{ gateKey: [] }];

/** Every gate operation's refusals. */
export const GATE_ALWAYS: DocumentedErrorStatus[] = [
  401, 403, 404, 429, 500, 503,
];
