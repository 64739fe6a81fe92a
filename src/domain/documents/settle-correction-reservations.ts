import {
  confirmReservation,
  findReservationHolder,
  findUnconfirmedReservations,
  freeReservation,
} from "../../db/documents";
import { findMoving, toDocument } from "../shard-routing";
import { ORPHAN_AGE_MS } from "./attempts";
import type { DocumentServices } from "./services";

const BATCH_SIZE = 50;

/**
 * Settles the reservations of corrections once no attempt can commit under
 * them any more (attempts.ts), in bounded rounds per shard: one held by the
 * correction of its version that carries its reference is confirmed and
 * points at it; one that no document holds is freed. Each change applies
 * only to the reservation as it was read.
 */
export async function settleCorrectionReservations(
  services: Pick<DocumentServices, "shards" | "shardsBefore" | "clock">,
  maxRounds = 4,
): Promise<number> {
  const before = services.clock.now() - ORPHAN_AGE_MS;
  let settled = 0;
  for (const shard of services.shards) {
    for (let round = 0; round < maxRounds; round++) {
      const unconfirmed = await findUnconfirmedReservations(
        shard,
        before,
        BATCH_SIZE,
      );
      for (const reservation of unconfirmed) {
        const holder = (
          await findMoving(
            services,
            toDocument(reservation.documentUuid),
            (db) => findReservationHolder(db, reservation),
          )
        )?.found;
        await (holder
          ? confirmReservation(shard, reservation, holder.uuid)
          : freeReservation(shard, reservation));
      }
      settled += unconfirmed.length;
      if (unconfirmed.length < BATCH_SIZE) break;
    }
  }
  return settled;
}
