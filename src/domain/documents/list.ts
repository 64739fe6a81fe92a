import { toIsoTime } from "../../clock";
import { listDocumentSummaries } from "../../db/documents";
import type { DocumentList } from "../../schemas/document-result";
import type { ListQuery } from "../../schemas/list-query";
import type { Credential } from "../authenticate";
import { homeShard } from "../shard-routing";
import { readWindowStart } from "../windows";
import type { DocumentServices } from "./services";

/**
 * The caller's non-deleted documents of the last 24 hours, newest first. The
 * window moves with the clock, so pages are not a stable snapshot.
 */
export async function listDocuments(
  services: Pick<DocumentServices, "shards" | "clock">,
  credential: Credential,
  query: ListQuery,
): Promise<DocumentList> {
  const { rows, total } = await listDocumentSummaries(
    homeShard(services.shards, credential),
    {
      credentialId: credential.id,
      createdSince: readWindowStart(services.clock.now()),
      transportDateFrom: query.from,
      transportDateTo: query.to,
    },
    { offset: (query.page - 1) * query.limit, limit: query.limit },
  );
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
