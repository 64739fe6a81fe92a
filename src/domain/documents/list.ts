import { toIsoTime } from "../../clock";
import type { Database } from "../../db/client";
import {
  type DocumentSummaryRow,
  listDocumentSummaries,
} from "../../db/document-summaries";
import type { DocumentList } from "../../schemas/document-result";
import type { ListQuery } from "../../schemas/list-query";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { homeShard, shardsHolding } from "../shard-routing";
import { readWindowStart } from "../windows";

type Filter = Parameters<typeof listDocumentSummaries>[1];
type Page = { offset: number; limit: number };

const newestFirst = (a: DocumentSummaryRow, b: DocumentSummaryRow) =>
  b.createdAt - a.createdAt || (a.uuid < b.uuid ? 1 : a.uuid > b.uuid ? -1 : 0);

/**
 * A page of a list whose entries a rebalance is moving between two home
 * shards: the former one read first (the mover copies before it deletes),
 * each up to the page's end, merged; an entry in both counts once.
 */
async function listMoving(
  homes: readonly Database[],
  filter: Filter,
  page: Page,
): Promise<{ rows: DocumentSummaryRow[]; total: number }> {
  const upToPage = { offset: 0, limit: page.offset + page.limit };
  const lists = [];
  for (const home of homes) {
    lists.push(await listDocumentSummaries(home, filter, upToPage));
  }
  const byUuid = new Map(
    lists.flatMap((list) => list.rows).map((row) => [row.uuid, row]),
  );
  const read = lists.reduce((sum, list) => sum + list.rows.length, 0);
  const total =
    lists.reduce((sum, list) => sum + list.total, 0) - (read - byUuid.size);
  return {
    rows: [...byUuid.values()]
      .sort(newestFirst)
      .slice(page.offset, page.offset + page.limit),
    total,
  };
}

/**
 * The caller's non-deleted documents of the last 24 hours, newest first. The
 * window moves with the clock, so pages are not a stable snapshot.
 */
export async function listDocuments(
  services: Pick<Services, "shards" | "shardsBefore" | "clock">,
  credential: Credential,
  query: ListQuery,
): Promise<DocumentList> {
  const filter = {
    credentialId: credential.id,
    createdSince: readWindowStart(services.clock.now()),
    transportDateFrom: query.from,
    transportDateTo: query.to,
  };
  const page = { offset: (query.page - 1) * query.limit, limit: query.limit };
  const homes = shardsHolding(services, (shards) =>
    homeShard(shards, credential),
  );
  const { rows, total } =
    homes.length === 1
      ? await listDocumentSummaries(homes[0] as Database, filter, page)
      : await listMoving(homes, filter, page);
  return {
    data: rows.map((row) => ({
      uuid: row.uuid,
      reference: row.reference,
      created_at: toIsoTime(row.createdAt),
      transport_date: row.transportDate,
      rectifies_uuid: row.rectifiesUuid,
    })),
    meta: {
      current_page: query.page,
      limit: query.limit,
      total,
      last_page: Math.max(1, Math.ceil(total / query.limit)),
    },
  };
}
