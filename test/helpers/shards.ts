import { env } from "cloudflare:test";
import { shardBindings } from "../../src/db/client";
import { documentShard } from "../../src/domain/shard-routing";

/** Every D1 shard of the test Worker, DB_0 first. */
export const shards = shardBindings(env);

/** The shard of a document's row, audit events and pending notes. */
export const shardOf = (uuid: string): D1Database =>
  documentShard(shards, uuid);

/** The rows of `sql` in every shard, one list. */
export async function rowsOfAllShards<T = Record<string, unknown>>(
  sql: string,
  ...values: unknown[]
): Promise<T[]> {
  const results = await Promise.all(
    shards.map(
      async (shard) =>
        (
          await shard
            .prepare(sql)
            .bind(...values)
            .all<T>()
        ).results,
    ),
  );
  return results.flat();
}

/** When a document's QR accesses were recorded in its audit trail, in order. */
export const qrAccessTimes = async (uuid: string): Promise<number[]> =>
  (
    await shardOf(uuid)
      .prepare(
        "SELECT occurred_at FROM audit_events WHERE document_uuid = ? AND type = 'qr_accessed' ORDER BY id",
      )
      .bind(uuid)
      .all<{ occurred_at: number }>()
  ).results.map((event) => event.occurred_at);
