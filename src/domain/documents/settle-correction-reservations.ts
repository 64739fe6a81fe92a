import type { Database } from "../../db/client";
import {
  confirmReservation,
  findReservationHolder,
  findUnconfirmedReservations,
  freeReservation,
} from "../../db/reservations";
import {
  inRounds,
  type QueryBudget,
  type RoundCost,
  type RoundResult,
} from "../cron-budget";
import type { Services } from "../services";
import { findMoving, toDocument } from "../shard-routing";
import { ORPHAN_AGE_MS } from "./attempts";

// A round: the reservations; for each, its holder read (a batch of two, in
// two shards while a rebalance runs) and its confirmation or release.
const ROUND: RoundCost = { look: 1, fixed: 0, perRow: 5, rows: 50 };

type ReservationServices = Pick<Services, "shards" | "shardsBefore" | "clock">;

/** One round in `shard`: up to `limit` reservations settled. */
async function settleRound(
  services: ReservationServices,
  shard: Database,
  limit: number,
): Promise<RoundResult> {
  const before = services.clock.now() - ORPHAN_AGE_MS;
  const unconfirmed = await findUnconfirmedReservations(shard, before, limit);
  for (const reservation of unconfirmed) {
    const holder = (
      await findMoving(services, toDocument(reservation.documentUuid), (db) =>
        findReservationHolder(db, reservation),
      )
    )?.found;
    await (holder
      ? confirmReservation(shard, reservation, holder.uuid)
      : freeReservation(shard, reservation));
  }
  return { found: unconfirmed.length, finished: unconfirmed.length };
}

/**
 * Settles the reservations of corrections once no attempt can commit under
 * them any more (attempts.ts), in rounds over the shards while `budget`
 * lasts: one held by the correction of its version that carries its
 * reference is confirmed and points at it; one that no document holds is
 * freed. Each change applies only to the reservation as it was read.
 */
export const settleCorrectionReservations = (
  services: ReservationServices,
  budget: QueryBudget,
): Promise<number> =>
  inRounds(
    budget,
    services.shards,
    services.clock.now(),
    ROUND,
    (shard, limit) => settleRound(services, shard, limit),
  );
