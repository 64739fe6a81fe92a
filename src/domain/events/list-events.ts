import type { Database } from "../../db/client";
import { type EventListFilter, pageOfEvents } from "../../db/event-log";
import type { EventRow } from "../../db/schema";
import { ValidationError } from "../../errors";
import type { EventListQuery } from "../../schemas/event-list-query";
import type { EventList } from "../../schemas/event-result";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { shardsHolding } from "../shard-routing";
import { eventsHome } from "./home";
import { keptSince } from "./kept-since";
import { eventPayload } from "./payload";

const unknownCursor = () =>
  new ValidationError([
    {
      field: "starting_after",
      code: "INVALID_VALUE",
      message: "Must be the id of one of your events still kept.",
    },
  ]);

const newestFirst = (a: EventRow, b: EventRow) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Up to `size` events after the cursor, in a list whose events a rebalance
 * is moving between two home shards: the former one read first (the mover
 * copies before it deletes), then the current one, merged; an event in both
 * counts once. A cursor already moved is read in the current shard, and
 * the former one read again from its position.
 */
async function pageMoving(
  [former, current]: readonly Database[],
  filter: EventListFilter,
  startingAfter: string | undefined,
  size: number,
): Promise<EventRow[]> {
  const first = await pageOfEvents(
    former as Database,
    filter,
    startingAfter,
    size,
  );
  const second = await pageOfEvents(
    current as Database,
    filter,
    first.after ?? startingAfter,
    size,
  );
  const after = first.after ?? second.after;
  if (after === null) throw unknownCursor();
  const formerRows =
    first.after === null
      ? (await pageOfEvents(former as Database, filter, after, size)).rows
      : first.rows;
  const byId = new Map(
    [...formerRows, ...second.rows].map((row) => [row.id, row]),
  );
  return [...byId.values()].sort(newestFirst).slice(0, size);
}

/**
 * The caller's events of the last 30 days, newest first, a page after the
 * cursor `starting_after`: one batch in the credential's home shard.
 */
export async function listEvents(
  services: Pick<Services, "shards" | "shardsBefore" | "clock">,
  credential: Credential,
  query: EventListQuery,
): Promise<EventList> {
  const filter = {
    credentialId: credential.id,
    createdSince: keptSince(services.clock.now()),
    type: query.type,
    documentUuid: query.document_uuid,
  };
  // One more than the page: whether more follow.
  const size = query.limit + 1;
  const homes = shardsHolding(services, eventsHome(credential.id));
  let rows: EventRow[];
  if (homes.length === 1) {
    const page = await pageOfEvents(
      homes[0] as Database,
      filter,
      query.starting_after,
      size,
    );
    if (page.after === null) throw unknownCursor();
    rows = page.rows;
  } else {
    rows = await pageMoving(homes, filter, query.starting_after, size);
  }
  return {
    data: rows.slice(0, query.limit).map(eventPayload),
    has_more: rows.length > query.limit,
  };
}
