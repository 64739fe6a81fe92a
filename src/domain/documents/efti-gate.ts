// A document as eFTI data for an authority's gate (docs/efti.md "Gates"):
// one consignment by its dataset id, reduced to the subsets asked for (a
// read is an access of the document, as a QR scan is), and the follow-up
// messages a gate posts about it (a message, not a read: no access). A live document is visible
// as long as its QR link would serve it: any owner, no read window, a
// rectified version too; deleted, test, demo, unknown or malformed ids are
// the same 404.

import { documentExists, findDocumentsByUuidPrefix } from "../../db/documents";
import { keepFollowUp } from "../../db/efti-follow-ups";
import type { DocumentRow } from "../../db/schema";
import { DomainError, notFound } from "../../errors";
import { GATE_ENVIRONMENT } from "../../schemas/environment";
import { type Consignment, consignmentWithId } from "../efti/consignment";
import { datasetId, datasetLocation } from "../efti/dataset-id";
import type { SubsetId } from "../efti/schema-facts.generated";
import { consignmentXml, subsetOf } from "../efti/subsets";
import { announceEvents } from "../events/announce";
import { keptGateRequestId } from "../operations/gate-calls";
import type { Services } from "../services";
import { sha256Hex } from "../sha256";
import { findMoving, toDocument, writeMoving } from "../shard-routing";
import { accessRead } from "./access-writes";
import { documentData } from "./document-body";

/** The longest follow-up message a gate may post, in bytes as sent. */
export const MAX_FOLLOW_UP_BYTES = 8192;

/**
 * How long the same text about the same dataset is a gate's retry (after a
 * lost answer) rather than a later inspection's note: 10 minutes.
 */
export const FOLLOW_UP_RETRY_WINDOW_MS = 10 * 60_000;

/** What a gate asks for every subset served: the reference gate's request when the officer names none. */
export const FULL_SUBSETS = "full";

/**
 * The subsets a gate's `subsetId` values ask for, each once: `full` is every
 * subset `served`. 400 INVALID_SUBSET_ID when none is asked, or one that is
 * not served (an unknown one, or ES02–ES05 not configured).
 */
export function subsetsToServe(
  asked: readonly string[],
  served: readonly SubsetId[],
): SubsetId[] {
  const invalid = new DomainError("INVALID_SUBSET_ID", {
    field: "subsetId",
    served,
  });
  const subsets = new Set<SubsetId>();
  for (const value of asked) {
    const named =
      value === FULL_SUBSETS
        ? served
        : served.filter((subset) => subset === value);
    if (named.length === 0) throw invalid;
    for (const subset of named) subsets.add(subset);
  }
  if (subsets.size === 0) throw invalid;
  return [...subsets];
}

/** Whether a gate sees the document: a live one, as its QR link would open it. */
const visibleToGates = (row: DocumentRow): boolean =>
  row.environment === GATE_ENVIRONMENT && row.deletedAt === null;

/**
 * The document `id` names and its shipment's number: in the shard of the
 * id's bucket (the former one too while a rebalance runs), among the
 * documents created in the id's millisecond in that bucket, the one whose
 * dataset id for that shipment is `id`. 404 when none is, or a gate may
 * not see it.
 */
async function gateDocument(
  services: Services,
  id: string,
): Promise<{ row: DocumentRow; shipmentNumber: number }> {
  const location = datasetLocation(id);
  if (!location) throw notFound();
  const found = await findMoving(services, toDocument(id), async (db) => {
    for (const row of await findDocumentsByUuidPrefix(
      db,
      location.uuidPrefix,
    )) {
      if ((await datasetId(row.uuid, location.shipmentNumber)) === id) {
        return row;
      }
    }
    return undefined;
  });
  if (!found || !visibleToGates(found.found)) throw notFound();
  return { row: found.found, shipmentNumber: location.shipmentNumber };
}

/** The consignment `id` of a document a gate may see, or 404. */
async function gateConsignment(
  services: Services,
  id: string,
): Promise<{ row: DocumentRow; consignment: Consignment }> {
  const { row } = await gateDocument(services, id);
  const consignment = await consignmentWithId(
    { ...row, data: await documentData(services, row) },
    id,
  );
  // A shipment number beyond the document's shipments.
  if (!consignment) throw notFound();
  return { row, consignment };
}

/**
 * The consignment `id` with only the elements of `subsets`, as the common
 * data set's XML (consignment-common.xsd), for the gate of key version
 * `gate`. The read is an access of the document (access-writes.ts): the
 * first one blocks its deletion, and is written before the answer.
 */
export async function gateConsignmentXml(
  services: Services,
  id: string,
  subsets: readonly SubsetId[],
  gate: string,
): Promise<string> {
  const { row, consignment } = await gateConsignment(services, id);
  const xml = consignmentXml(subsetOf(consignment.root, subsets));
  await accessRead(services, row, services.clock.now(), {
    via: "efti_gate",
    datasetId: id,
    gate,
  });
  return xml;
}

/**
 * Keeps a gate's follow-up message about consignment `id`, with its event
 * for the document's owner (document.efti_follow_up) in the same batch, and
 * announces the event once committed. A gate's retry (the same text for the
 * same dataset within FOLLOW_UP_RETRY_WINDOW_MS, or with the same gate
 * request id) keeps the one message and the one event; the same text later
 * is another inspection's, a message of its own.
 */
export async function postFollowUp(
  services: Services,
  id: string,
  message: string,
  gate: { name: string; requestId: string | null },
): Promise<void> {
  const { row, consignment } = await gateConsignment(services, id);
  const receivedAt = services.clock.now();
  const followUp = {
    datasetId: id,
    documentUuid: row.uuid,
    shipment: consignment.shipmentNumber,
    message,
    messageHash: await sha256Hex(message),
    gate: gate.name,
    requestId: services.requestId,
    gateRequestId: keptGateRequestId(gate.requestId),
    receivedAt,
  };
  // A retry of a message written already is kept, nothing more written.
  await writeMoving(
    services,
    toDocument(row.uuid),
    (db) => keepFollowUp(db, followUp, receivedAt - FOLLOW_UP_RETRY_WINDOW_MS),
    (db) => documentExists(db, row.uuid),
  );
  announceEvents(services, [row.uuid]);
}
