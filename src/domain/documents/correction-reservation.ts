import {
  confirmReservation,
  freeReservation,
  moveReservationAhead,
  type ReservationRow,
  reserveForCorrection,
} from "../../db/reservations";
import type { Environment } from "../../schemas/environment";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { formerShard, reservationShard } from "../shard-routing";
import { findReserved, freeIfAbandoned } from "./addressing";
import { referenceConflict } from "./reference-conflict";

// A correction's new reference lives in its own shard, apart from the batch
// that commits the correction in its original's shard, so the two cannot
// commit together. The reservation therefore names the version it corrects
// (`rectifiesUuid`): whichever attempt at that one correction commits holds
// the reference, a retry takes the reservation over, and the reservation is
// freed only when no correction of that version carries the reference and
// none can commit any more.

/** A correction's reservation as this attempt wrote it. */
export interface CorrectionReservation {
  row: ReservationRow & { rectifiesUuid: string };
  /** True when the reference was free: no earlier attempt can hold it. */
  fresh: boolean;
}

type ReservationServices = Pick<Services, "shards" | "shardsBefore" | "clock">;

/**
 * Reserves the new reference of the correction `uuid` of `rectifiesUuid`.
 * REFERENCE_CONFLICT when another document holds it, or another request
 * may still commit under it; a reservation abandoned by a dead attempt is
 * freed and taken.
 */
export async function reserveCorrectionReference(
  services: ReservationServices,
  credential: Credential,
  version: {
    uuid: string;
    createdAt: number;
    reference: string;
    rectifiesUuid: string;
  },
): Promise<CorrectionReservation> {
  const row = {
    organizationId: credential.organizationId,
    environment: credential.environment,
    reference: version.reference,
    documentUuid: version.uuid,
    credentialId: credential.id,
    createdAt: version.createdAt,
    rectifiesUuid: version.rectifiesUuid,
  };
  const route = <T>(shards: readonly T[]) =>
    reservationShard(shards, credential, row.reference);
  const shard = route(services.shards);
  // While a rebalance runs, a reservation still in its former shard is
  // taken to this one first, as the mover would: from then on this shard's
  // primary key decides, and the mover's later copy of it changes nothing.
  const former = formerShard(services, route);
  if (former !== null) {
    await moveReservationAhead(former, shard, credential, row.reference);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const outcome = await reserveForCorrection(shard, row);
    if (outcome !== "held") return { row, fresh: outcome === "reserved" };
    const held = await findReserved(services, credential, row.reference);
    if (!held || !(await freeIfAbandoned(services, credential, held))) break;
  }
  throw referenceConflict();
}

/**
 * After this attempt's commit was refused (its original deleted or
 * rectified meanwhile): the reservation goes to the correction that holds
 * the reference, or is freed when none does. Either only if it still names
 * this attempt.
 */
export async function settleRefusedReservation(
  services: ReservationServices,
  scope: { organizationId: string; environment: Environment },
  reservation: CorrectionReservation,
): Promise<void> {
  const { row } = reservation;
  const reserved = await findReserved(services, scope, row.reference);
  if (
    reserved?.reservation.documentUuid !== row.documentUuid ||
    reserved.reservation.createdAt !== row.createdAt
  ) {
    return;
  }
  const shard = reservationShard(services.shards, scope, row.reference);
  if (reserved.document) {
    await confirmReservation(
      shard,
      reserved.reservation,
      reserved.document.uuid,
    );
  } else {
    await freeReservation(shard, reserved.reservation);
  }
}

/**
 * After this attempt failed before committing: a reservation it made fresh
 * is freed (no other attempt held it); one it took over stays for the
 * earlier attempt, which may still commit, until the cron settles it.
 */
export async function releaseUncommittedReservation(
  services: Pick<Services, "shards">,
  scope: { organizationId: string; environment: Environment },
  reservation: CorrectionReservation,
): Promise<void> {
  if (!reservation.fresh) return;
  await freeReservation(
    reservationShard(services.shards, scope, reservation.row.reference),
    reservation.row,
  );
}
