import type { Database } from "../../db/client";
import { moveRowsAhead, type RowSelection } from "../../db/rebalance";
import type { Services } from "../services";
import { formerShard, homeShard } from "../shard-routing";

/**
 * The route of a credential's events, deliveries and endpoints: its home
 * shard. Only real keys have events, and a real key's home does not depend
 * on its environment, so the credential's id is enough.
 */
export const eventsHome =
  (credentialId: string) =>
  <T>(shards: readonly T[]): T =>
    homeShard(shards, realKey(credentialId));

/** A real key, by its id alone: all its home shard depends on. */
export const realKey = (credentialId: string) => ({
  id: credentialId,
  environment: "live" as const,
});

/** What a request is about to work on in a credential's home, beyond its endpoints. */
interface HomeRows {
  /** Events, each with its deliveries and attempts. */
  events?: readonly string[];
}

/**
 * The credential's home shard, holding now every row of the credential
 * that a request works on together: its endpoints and, as asked, some
 * events with their deliveries and attempts. While a rebalance moves the
 * home (docs/scale.md "Adding shards"), the mover takes these tables one
 * after the other, so an event, its endpoint and its delivery may be in
 * different shards; such a request first moves those rows itself, as the
 * mover would (copied, then deleted where still as read), and then reads
 * and writes its home alone. A home that does not move costs nothing more;
 * one that does, a read of the former home (and the move of what it found).
 */
export async function homeHolding(
  services: Pick<Services, "shards" | "shardsBefore">,
  credentialIds: readonly string[],
  { events = [] }: HomeRows = {},
): Promise<Database> {
  const [first] = credentialIds;
  if (first === undefined) throw new Error("no credential");
  const home = eventsHome(first)(services.shards);
  const byFormer = Map.groupBy(credentialIds, (id) =>
    formerShard(services, eventsHome(id)),
  );
  await Promise.all(
    [...byFormer].map(([former, ids]) =>
      former === null
        ? undefined
        : moveRowsAhead(former, home, [
            {
              table: "webhook_endpoints",
              column: "credential_id",
              values: ids,
            },
            ...eventRows(events),
          ]),
    ),
  );
  return home;
}

const eventRows = (ids: readonly string[]): RowSelection[] =>
  ids.length === 0
    ? []
    : [
        { table: "events", column: "id", values: ids },
        { table: "webhook_deliveries", column: "event_id", values: ids },
        { table: "webhook_attempts", column: "event_id", values: ids },
      ];
