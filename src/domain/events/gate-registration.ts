// The eFTI gate's registrations, sent (docs/efti.md "Registration with the
// gate"): what an `efti_registration` message asks. Each body is built from
// the document as it is when it is sent, never from the row that asked for
// it, so a resend after a lost answer, or two in either order, leaves the
// gate with the document's state.
import type { Database } from "../../db/client";
import {
  findUnsentRegistrations,
  markRegistrationsSent,
} from "../../db/efti-registrations";
import type { EftiRegistrationRow } from "../../db/schema";
import { logFailure } from "../../failure-log";
import { findDocument } from "../documents/addressing";
import { documentData } from "../documents/document-body";
import { consignmentsOf } from "../efti/consignment";
import { identifierXml, withdrawnIdentifierXml } from "../efti/subsets";
import { chunks, grouped } from "../grouped";
import type { EftiGate, Services } from "../services";
import { shardsHolding, toDocument } from "../shard-routing";

/** How long the gate has to answer a registration. */
const GATE_TIMEOUT_MS = 10_000;

const USER_AGENT = "DeCA-eFTI/1";

// D1 binds at most 100 values a statement: uuids and ids go by fifty.
const AT_ONCE = 50;

/**
 * When a message whose registrations failed comes back: 5 s, 10 s, 20 s, …
 * then every 5 minutes, until wrangler.toml's max_retries; the cron then
 * sends again what stays unsent (recover.ts).
 */
export const registrationRetryDelaySeconds = (attempts: number): number =>
  Math.min(300, 5 * 2 ** Math.max(0, attempts - 1));

export type GateServices = Pick<
  Services,
  "shards" | "shardsBefore" | "clock" | "archives" | "eftiGate" | "sendToGate"
>;

/** An unsent registration, and the shard it was read from. */
interface Unsent {
  source: Database;
  row: EftiRegistrationRow;
}

/**
 * The identifier document of each of the document's datasets, as it now
 * is: a current version's from its consignment; a rectified one's (its
 * correction registered in its stead), a deleted one's, or one not found,
 * withdrawn. By dataset id; a dataset absent from the map is withdrawn.
 */
async function identifierBodies(
  services: GateServices,
  uuid: string,
): Promise<Map<string, string>> {
  const row = await findDocument(services, uuid);
  if (!row || row.deletedAt !== null || row.rectifiedByUuid !== null)
    return new Map();
  const consignments = await consignmentsOf({
    uuid: row.uuid,
    rectifiesUuid: row.rectifiesUuid,
    data: await documentData(services, row),
  });
  return new Map(
    consignments.map(({ datasetId, root }) => [datasetId, identifierXml(root)]),
  );
}

/** The PUT of one dataset's identifier document to the gate. */
const gateRequest = (gate: EftiGate, datasetId: string, body: string) =>
  new Request(`${gate.url}/v0/consignments/${encodeURIComponent(datasetId)}`, {
    method: "PUT",
    headers: {
      "content-type": "application/xml",
      "user-agent": USER_AGENT,
      ...(gate.credential === null
        ? {}
        : { authorization: `Bearer ${gate.credential}` }),
    },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(GATE_TIMEOUT_MS),
  });

/** Why a PUT did not register: its status, or that no answer came. */
async function sendFailure(
  services: GateServices,
  gate: EftiGate,
  datasetId: string,
  body: string,
): Promise<string | null> {
  try {
    const response = await services.sendToGate(
      gateRequest(gate, datasetId, body),
    );
    await response.body?.cancel();
    return response.status >= 200 && response.status < 300
      ? null
      : `status ${response.status}`;
  } catch (error) {
    return error instanceof Error && error.name === "TimeoutError"
      ? "timeout"
      : "connection";
  }
}

/**
 * What `{kind: "efti_registration"}` messages ask (a batch's, together):
 * these documents' unsent registrations, read where each document is (in
 * both its shards while a rebalance runs), each dataset's identifier
 * document built from its document as it is after that read and PUT to the
 * gate once (several unsent rows of one dataset, one PUT), and the rows
 * whose PUT was answered 2xx marked sent. Throws when any was not, once
 * the others are marked: the messages come back (and the cron after them).
 * Nothing while no gate is configured: the rows wait.
 */
export async function registerWithGate(
  services: GateServices,
  documentUuids: readonly string[],
): Promise<void> {
  const gate = services.eftiGate;
  if (gate === null) return;
  const sources = grouped(
    [...new Set(documentUuids)].flatMap((uuid) =>
      shardsHolding(services, toDocument(uuid)).map((source) => ({
        source,
        uuid,
      })),
    ),
    ({ source }) => source,
  );
  // The rows first: a fact committed after this read has its own row, which
  // stays unsent for the next message; the bodies are read after them.
  const unsent: Unsent[] = (
    await Promise.all(
      [...sources].flatMap(([source, documents]) =>
        chunks(documents, AT_ONCE).map(async (run) =>
          (
            await findUnsentRegistrations(
              source,
              run.map(({ uuid }) => uuid),
            )
          ).map((row) => ({ source, row })),
        ),
      ),
    )
  ).flat();
  if (unsent.length === 0) return;
  const byDocument = grouped(unsent, ({ row }) => row.documentUuid);
  const outcomes = await Promise.all(
    [...byDocument].map(async ([uuid, rows]) => {
      const bodies = await identifierBodies(services, uuid);
      const byDataset = grouped(rows, ({ row }) => row.datasetId);
      return Promise.all(
        [...byDataset].map(async ([datasetId, registrations]) => ({
          registrations,
          failure: await sendFailure(
            services,
            gate,
            datasetId,
            bodies.get(datasetId) ?? withdrawnIdentifierXml(),
          ),
          datasetId,
        })),
      );
    }),
  );
  const sent = outcomes.flat().filter(({ failure }) => failure === null);
  const failed = outcomes.flat().filter(({ failure }) => failure !== null);
  const now = services.clock.now();
  await Promise.all(
    [
      ...grouped(
        sent.flatMap(({ registrations }) => registrations),
        ({ source }) => source,
      ),
    ].flatMap(([source, group]) =>
      chunks(group, AT_ONCE).map((run) =>
        markRegistrationsSent(
          source,
          run.map(({ row }) => row.id),
          now,
        ).catch((error: unknown) =>
          // Registered all the same: sent again, the gate gets the same state.
          logFailure({ event: "efti_registration_mark_failed" }, error),
        ),
      ),
    ),
  );
  if (failed.length > 0) {
    throw new Error(
      `the eFTI gate did not register ${failed.length} of ${
        failed.length + sent.length
      } datasets (${failed
        .slice(0, 3)
        .map(({ datasetId, failure }) => `${datasetId}: ${failure}`)
        .join(", ")})`,
    );
  }
}
