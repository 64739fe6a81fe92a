import { and, desc, eq, lt } from "drizzle-orm";
import type { Database } from "./client";
import { type EftiGateCallRow, eftiGateCalls } from "./schema";

/** A request of a gate as it arrives (or is refused); its row id. */
export async function recordGateCall(
  db: Database,
  call: Omit<EftiGateCallRow, "id">,
): Promise<number> {
  const [row] = await db
    .insert(eftiGateCalls)
    .values(call)
    .returning({ id: eftiGateCalls.id });
  if (!row) throw new Error("the gate's audit row was not written");
  return row.id;
}

/** The answer of a recorded request. */
export async function finishGateCall(
  db: Database,
  id: number,
  answer: { status: number; finishedAt: number },
): Promise<void> {
  await db.update(eftiGateCalls).set(answer).where(eq(eftiGateCalls.id, id));
}

/**
 * Up to `limit` requests, newest first (by row id, the order they arrived
 * in), older than row `before` when given, of one dataset when given.
 */
export const listGateCalls = (
  db: Database,
  page: { limit: number; before?: number; datasetId?: string },
) =>
  // Bounded scan of efti_gate_calls: in rowid order from the newest, stopped at `limit` (at most 101).
  db
    .select()
    .from(eftiGateCalls)
    .where(
      and(
        page.before === undefined
          ? undefined
          : lt(eftiGateCalls.id, page.before),
        page.datasetId === undefined
          ? undefined
          : eq(eftiGateCalls.datasetId, page.datasetId),
      ),
    )
    .orderBy(desc(eftiGateCalls.id))
    .limit(page.limit);
