import { env } from "cloudflare:test";
import { consignmentsOf } from "../../src/domain/efti/consignment";
import { identifierXml } from "../../src/domain/efti/subsets";
import type { DocumentData } from "../../src/schemas/document-request";
import { rowsOfAllShards, shardOf } from "./shards";
import type { Received } from "./webhooks";

// The eFTI gate of the registrations in the worker tests: a loopback URL
// nothing listens on (the consumer's sends are recorded, webhooks.ts), and
// the rows the batches wrote.

export const GATE_URL = "http://127.0.0.1:9/gate";
export const GATE_CREDENTIAL = "test-gate-credential";

/**
 * `bindings` with the eFTI gate configured; its outbound authentication the
 * Bearer credential unless `authentication` gives others (EFTI_GATE_HEADERS,
 * EFTI_GATE_CLIENT_CERTIFICATE).
 */
export const gated = (
  bindings: Env = env,
  authentication: Record<string, unknown> = {
    EFTI_GATE_CREDENTIAL: GATE_CREDENTIAL,
  },
): Env =>
  // The credential and the headers are secrets not every deployment has:
  // not in Env's type.
  ({ ...bindings, EFTI_GATE_URL: GATE_URL, ...authentication }) as Env;

export interface RegistrationRow {
  id: string;
  dataset_id: string;
  document_uuid: string;
  created_at: number;
  sent_at: number | null;
  attempts: number;
  next_attempt_at: number | null;
  last_status: number | null;
  parked_at: number | null;
}

/** The registrations of a document, in every shard. */
export const registrationsOf = (uuid: string): Promise<RegistrationRow[]> =>
  rowsOfAllShards<RegistrationRow>(
    "SELECT * FROM efti_registrations WHERE document_uuid = ? ORDER BY created_at, dataset_id",
    uuid,
  );

/** The dataset id a PUT to the gate names. */
export const datasetOf = (put: Received): string =>
  decodeURIComponent(put.url.slice(`${GATE_URL}/v0/consignments/`.length));

/** The PUTs the gate received for `datasetIds`. */
export const putsFor = (
  received: readonly Received[],
  datasetIds: readonly string[],
): Received[] => received.filter((put) => datasetIds.includes(datasetOf(put)));

/** Each dataset's identifier document as the stored document now is, by dataset id. */
export async function identifiersOf(
  uuid: string,
): Promise<Map<string, string>> {
  const row = await shardOf(uuid)
    .prepare(
      "SELECT data, created_at, rectifies_uuid, rectified_by_uuid FROM documents WHERE uuid = ?",
    )
    .bind(uuid)
    .first<{
      data: string;
      created_at: number;
      rectifies_uuid: string | null;
      rectified_by_uuid: string | null;
    }>();
  if (!row) throw new Error(`no document ${uuid}`);
  const consignments = await consignmentsOf({
    uuid,
    createdAt: row.created_at,
    rectifiesUuid: row.rectifies_uuid,
    rectifiedByUuid: row.rectified_by_uuid,
    data: JSON.parse(row.data) as DocumentData,
  });
  return new Map(
    consignments.map(({ datasetId, root }) => [datasetId, identifierXml(root)]),
  );
}
