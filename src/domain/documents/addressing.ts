import type { Database } from "../../db/client";
import {
  documentExists,
  findDocumentByUuid,
  findOwnDocumentByUuid,
} from "../../db/documents";
import {
  findReservation,
  findReservationHolder,
  freeReservation,
  type ReservationRow,
} from "../../db/reservations";
import type { DocumentRow } from "../../db/schema";
import type { Environment } from "../../schemas/environment";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import {
  documentShard,
  findMoving,
  reservationShard,
  shardsHolding,
  toDocument,
  writeMoving,
} from "../shard-routing";
import { isAbandoned } from "./attempts";

/** A document as a route names it: by its uuid or by its reference. */
export type DocumentAddress = { uuid: string } | { reference: string };

/** A reference's reservation and its document; `document` undefined when it was never committed. */
export interface Reserved {
  reservation: ReservationRow;
  document: DocumentRow | undefined;
}

/**
 * Who holds a reference in an organization and environment: one query when
 * the document sits beside its reservation (a create), two when it does not
 * (a correction's new reference, a document issued before sharding). A
 * correction's reservation is held by the correction of its version that
 * carries the reference, whichever attempt's uuid committed.
 * `pendingPdf` notes a PDF about to be put in the same round trip (the
 * document of a reference lives in its reservation's shard).
 */
export async function findReserved(
  services: Pick<Services, "shards" | "shardsBefore">,
  scope: { organizationId: string; environment: Environment },
  reference: string,
  pendingPdf?: { objectKey: string; createdAt: number },
): Promise<Reserved | undefined> {
  const shard = reservationShard(services.shards, scope, reference);
  // The note goes where the document will commit: the reference's shard now.
  const found =
    (await findReservation(shard, scope, reference, pendingPdf)) ??
    (services.shardsBefore === null
      ? undefined
      : (
          await findMoving(
            services,
            (shards) => reservationShard(shards, scope, reference),
            (db) => findReservation(db, scope, reference),
          )
        )?.found);
  if (!found) return undefined;
  const { reservation } = found;
  if (found.document) return { reservation, document: found.document };
  const elsewhere = documentShard(services.shards, reservation.documentUuid);
  if (
    elsewhere === shard &&
    reservation.rectifiesUuid === null &&
    services.shardsBefore === null
  ) {
    return { reservation, document: undefined };
  }
  const holder = await findMoving(
    services,
    toDocument(reservation.documentUuid),
    (db) => findReservationHolder(db, reservation),
  );
  return { reservation, document: holder?.found };
}

/**
 * Frees a reservation that no document holds once it is provably
 * abandoned: older than any attempt can commit (attempts.ts). A younger one
 * may belong to a request still issuing, and stays. While a rebalance runs,
 * freed in the former shard, then in the current one: wherever it is, only
 * as it was read. True if it was freed.
 */
export async function freeIfAbandoned(
  services: Pick<Services, "shards" | "shardsBefore" | "clock">,
  scope: { organizationId: string; environment: Environment },
  reserved: Reserved,
): Promise<boolean> {
  const { reservation } = reserved;
  if (
    reserved.document ||
    !isAbandoned(reservation.createdAt, services.clock.now())
  ) {
    return false;
  }
  const homes = shardsHolding(services, (shards) =>
    reservationShard(shards, scope, reservation.reference),
  );
  for (const shard of homes) await freeReservation(shard, reservation);
  return true;
}

/** Any document by uuid, whatever its owner, state or age, from its shard. */
export const findDocument = async (
  services: Pick<Services, "shards" | "shardsBefore">,
  uuid: string,
): Promise<DocumentRow | undefined> =>
  (
    await findMoving(services, toDocument(uuid), (db) =>
      findDocumentByUuid(db, uuid),
    )
  )?.found;

/**
 * A conditional write of a document (a deletion, a QR access) in its shard;
 * while a rebalance runs, decided on the copy that holds it (writeMoving).
 * True when it took effect.
 */
export const writeDocument = (
  services: Pick<Services, "shards" | "shardsBefore">,
  uuid: string,
  write: (db: Database) => Promise<boolean>,
): Promise<boolean> =>
  writeMoving(services, toDocument(uuid), write, (db) =>
    documentExists(db, uuid),
  );

/**
 * The caller's own document at an address, whatever its state or age; another
 * credential's document is as absent as one that never existed. A reference
 * names only its own version, never a later correction. By uuid,
 * `pendingPdf` notes a PDF about to be put in the same round trip (in each
 * shard read while a rebalance runs: the sweep settles a note wherever it is).
 */
export async function findOwnDocument(
  services: Pick<Services, "shards" | "shardsBefore">,
  credential: Credential,
  address: DocumentAddress,
  pendingPdf?: { objectKey: string; createdAt: number },
): Promise<DocumentRow | undefined> {
  if ("uuid" in address) {
    const { uuid } = address;
    return (
      await findMoving(services, toDocument(uuid), (db) =>
        findOwnDocumentByUuid(db, credential.id, uuid, pendingPdf),
      )
    )?.found;
  }
  const row = (await findReserved(services, credential, address.reference))
    ?.document;
  return row?.credentialId === credential.id ? row : undefined;
}
