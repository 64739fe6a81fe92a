import { desc, eq } from "drizzle-orm";
import type { Database } from "./client";
import { type OpsCallRow, opsCalls } from "./schema";

/** A call of the operations API as it arrives (or is refused); its row id. */
export async function recordOpsCall(
  db: Database,
  call: Omit<OpsCallRow, "id">,
): Promise<number> {
  const [row] = await db
    .insert(opsCalls)
    .values(call)
    .returning({ id: opsCalls.id });
  if (!row) throw new Error("the operations audit row was not written");
  return row.id;
}

/** The answer of a recorded call. */
export async function finishOpsCall(
  db: Database,
  id: number,
  answer: { status: number; finishedAt: number },
): Promise<void> {
  await db.update(opsCalls).set(answer).where(eq(opsCalls.id, id));
}

/** The latest calls, newest first. */
export const latestOpsCalls = (db: Database, limit: number) =>
  db
    .select()
    .from(opsCalls)
    .orderBy(desc(opsCalls.startedAt), desc(opsCalls.id))
    .limit(limit);
