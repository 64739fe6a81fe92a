import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { oncePer } from "../once-per";
import type { Database } from "./client";
import { literalRow, placeholderRow } from "./literal-row";
import {
  type EftiGateCallRow,
  eftiGateCalls,
  eftiGateRefusals,
} from "./schema";

/** The hash of the chain's last row, or null before the first. */
const lastHash = (db: Database) =>
  db
    .select({ hash: eftiGateCalls.hash })
    .from(eftiGateCalls)
    .where(isNotNull(eftiGateCalls.hash))
    .orderBy(desc(eftiGateCalls.id))
    .limit(1);

// Built and prepared once per database: each request of a gate appends two
// rows, each after reading the chain's end.
const chainTipQuery = oncePer((db: Database) => lastHash(db).prepare());

const appendQuery = oncePer((db: Database) =>
  db
    .insert(eftiGateCalls)
    .select(
      db
        .select(
          // SQLite numbers the row (AUTOINCREMENT).
          literalRow(eftiGateCalls, {
            ...placeholderRow(eftiGateCalls),
            id: null as unknown as number,
          }),
        )
        .from(sql`(select 1)`)
        .where(
          sql`coalesce((${lastHash(db)}), ${sql.placeholder("start")}) = ${sql.placeholder("previousHash")}` as SQL,
        ),
    )
    .returning({ id: eftiGateCalls.id })
    .prepare(),
);

/** The hash of the chain's last row, or null before the first. */
export async function chainTip(db: Database): Promise<string | null> {
  // Bounded scan of efti_gate_calls: from the newest rowid, stopped at the first chained row (every row since the chain began is one).
  const [row] = await chainTipQuery(db).all({});
  return row?.hash ?? null;
}

/**
 * Appends `row` to the chain if the chain's last row is still the one it
 * names (`previousHash`; `start` when it names none), in one statement: two
 * requests that read the same last row never both append after it. True
 * when it was written.
 */
export async function appendGateCall(
  db: Database,
  row: Omit<EftiGateCallRow, "id"> & { previousHash: string },
  start: string,
): Promise<boolean> {
  // Bounded scan of efti_gate_calls: the chain's last row, from the newest rowid (as chainTip).
  const written = await appendQuery(db).all({ ...row, start });
  return written.length > 0;
}

/** Whether request `requestId`'s row of `entry` is written (a lost answer's retry). */
export async function gateCallWritten(
  db: Database,
  requestId: string,
  entry: NonNullable<EftiGateCallRow["entry"]>,
): Promise<boolean> {
  const [row] = await db
    .select({ id: eftiGateCalls.id })
    .from(eftiGateCalls)
    .where(
      and(
        eq(eftiGateCalls.requestId, requestId),
        eq(eftiGateCalls.entry, entry),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Up to `limit` requests (their arrival or refusal, or a row written before
 * the chain), newest first (by row id, the order they arrived in), older
 * than row `before` when given, of one dataset when given.
 */
export const listGateCalls = (
  db: Database,
  page: { limit: number; before?: number; datasetId?: string },
) =>
  // Bounded scan of efti_gate_calls: in rowid order from the newest, an answer row skipped for each request kept, stopped at `limit` (at most 101).
  db
    .select()
    .from(eftiGateCalls)
    .where(
      and(
        or(isNull(eftiGateCalls.entry), ne(eftiGateCalls.entry, "answered")),
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

/** The answers of requests `requestIds` (at most one each). */
export const gateCallAnswers = (db: Database, requestIds: string[]) =>
  requestIds.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(eftiGateCalls)
        .where(
          and(
            inArray(eftiGateCalls.requestId, requestIds),
            eq(eftiGateCalls.entry, "answered"),
          ),
        );

/** Up to `limit` rows of the chain after row `after`, oldest first; of requests started in [from, to) when given. */
export const chainRows = (
  db: Database,
  page: { limit: number; after?: number; from?: number; to?: number },
) =>
  // Bounded scan of efti_gate_calls: in rowid order after `after`, stopped at `limit` (a page).
  db
    .select()
    .from(eftiGateCalls)
    .where(
      and(
        isNotNull(eftiGateCalls.hash),
        page.after === undefined ? undefined : gt(eftiGateCalls.id, page.after),
        page.from === undefined
          ? undefined
          : gte(eftiGateCalls.startedAt, page.from),
        page.to === undefined
          ? undefined
          : lt(eftiGateCalls.startedAt, page.to),
      ),
    )
    .orderBy(asc(eftiGateCalls.id))
    .limit(page.limit);

/** Counts one more refusal of `network` in `minute`, in one statement. */
export async function countRefusal(
  db: Database,
  refusal: { network: string; minute: number; status: number },
): Promise<void> {
  await db
    .insert(eftiGateRefusals)
    .values({
      network: refusal.network,
      minute: refusal.minute,
      count: 1,
      firstStatus: refusal.status,
      lastStatus: refusal.status,
    })
    .onConflictDoUpdate({
      target: [eftiGateRefusals.network, eftiGateRefusals.minute],
      set: {
        count: sql`${eftiGateRefusals.count} + 1`,
        lastStatus: refusal.status,
      },
    });
}
