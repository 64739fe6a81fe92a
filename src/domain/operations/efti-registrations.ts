import { toIsoTime } from "../../clock";
import {
  listRegistrations,
  type RegistrationState,
  unparkRegistrations,
} from "../../db/efti-registrations";
import { logFailure } from "../../failure-log";
import type { RegistrationList } from "../../schemas/ops";
import { documentMessages } from "../events/recover";
import type { Services } from "../services";

// The eFTI gate's registrations as the operations API shows them
// (docs/operations.md "Watching production"): parked ones, refused by the
// gate for good, and those still waiting; and parked ones sent again once
// the cause is fixed. Each lives in its document's shard: every shard is read.

/** How many parked registrations one call sends again, in each shard. */
const RETRIED_AT_ONCE = 100;

/** Up to `limit` registrations in `state`, of every shard, oldest first. */
export async function registrationPage(
  services: Pick<Services, "shards">,
  query: { state: RegistrationState; limit: number; dataset_id?: string },
): Promise<RegistrationList> {
  const rows = (
    await Promise.all(
      services.shards.map((shard) =>
        listRegistrations(shard, {
          state: query.state,
          datasetId: query.dataset_id,
          limit: query.limit + 1,
        }),
      ),
    )
  )
    .flat()
    // A row a rebalance is moving is in two shards.
    .filter(
      (row, index, all) => all.findIndex((r) => r.id === row.id) === index,
    )
    .sort(
      (a, b) =>
        (query.state === "parked"
          ? (a.parkedAt ?? 0) - (b.parkedAt ?? 0)
          : a.createdAt - b.createdAt) || a.id.localeCompare(b.id),
    );
  const time = (at: number | null) => (at === null ? null : toIsoTime(at));
  return {
    data: rows.slice(0, query.limit).map((row) => ({
      id: row.id,
      dataset_id: row.datasetId,
      document_uuid: row.documentUuid,
      created_at: toIsoTime(row.createdAt),
      attempts: row.attempts,
      last_status: row.lastStatus,
      next_attempt_at: time(row.nextAttemptAt),
      parked_at: time(row.parkedAt),
    })),
    has_more: rows.length > query.limit,
  };
}

/**
 * Sends parked registrations again (of one dataset, if given): each
 * unparked and due at once, its document's message sent. Should that send
 * fail, the cron sends them at its next run. How many.
 */
export async function retryParkedRegistrations(
  services: Pick<Services, "shards" | "eventQueue">,
  query: { dataset_id?: string },
): Promise<{ retried: number }> {
  const documents = (
    await Promise.all(
      services.shards.map((shard) =>
        unparkRegistrations(shard, {
          datasetId: query.dataset_id,
          limit: RETRIED_AT_ONCE,
        }),
      ),
    )
  ).flat();
  if (documents.length > 0) {
    await services.eventQueue
      .send(documentMessages("efti_registration", documents))
      .catch((error: unknown) =>
        logFailure({ event: "efti_registration_retry_send_failed" }, error),
      );
  }
  return { retried: documents.length };
}
