import type { Database } from "../../db/client";
import { findStaleUnsentDocuments } from "../../db/efti-registrations";
import { findStaleUnrelayedDocuments } from "../../db/event-relay";
import { findOverdueDeliveries } from "../../db/webhook-deliveries";
import type { EventMessage } from "../../schemas/event-message";
import { inTurn, type QueryBudget } from "../cron-budget";
import type { Services } from "../services";

// The cron's share of the events (docs/failures.md): an announcement or a
// delivery's message may be lost (a send that failed, or whose answer was
// lost before it was sent), and a relay or an attempt's record may stop
// half way. The rows say what is left; a minute gives the queue its time.
// The cron sends the lost messages again, and the queue's consumer does the
// work, as for any message: one read a shard and run whatever the backlog.
const LOST_AFTER_MS = 60_000;

// What one read takes of a shard's backlog; the next run takes the rest.
const EVENTS_PER_SHARD = 100;
const DELIVERIES_PER_SHARD = 500;
// Documents a message of the consumer's relays.
const DOCUMENTS_PER_MESSAGE = 10;

type RecoveryServices = Pick<Services, "shards" | "clock" | "eventQueue">;

/**
 * For each shard in turn while `budget` lasts (each run starting at
 * another), one read of what was lost a minute ago or more, and its
 * messages sent. How many messages.
 */
async function sendAgain(
  services: RecoveryServices,
  budget: QueryBudget,
  lost: (shard: Database, before: number) => Promise<EventMessage[]>,
): Promise<number> {
  const now = services.clock.now();
  let sent = 0;
  for (const shard of inTurn(services.shards, now)) {
    if (!budget.take(1)) break;
    const messages = await lost(shard, now - LOST_AFTER_MS);
    await services.eventQueue.send(messages);
    sent += messages.length;
  }
  return sent;
}

/** Messages of `kind` for `uuids` (each once), each naming a few documents. */
export function documentMessages(
  kind: "outbox" | "efti_registration",
  uuids: readonly string[],
): EventMessage[] {
  const unique = [...new Set(uuids)];
  const messages: EventMessage[] = [];
  for (let start = 0; start < unique.length; start += DOCUMENTS_PER_MESSAGE) {
    messages.push({
      kind,
      documentUuids: unique.slice(start, start + DOCUMENTS_PER_MESSAGE),
    });
  }
  return messages;
}

/**
 * Announces again the events still in an outbox a minute after their fact
 * (the announcement lost, or the relay stopped): the consumer relays them.
 */
export const announceLostEvents = (
  services: RecoveryServices,
  budget: QueryBudget,
): Promise<number> =>
  sendAgain(services, budget, async (shard, before) =>
    documentMessages(
      "outbox",
      await findStaleUnrelayedDocuments(shard, before, EVENTS_PER_SHARD),
    ),
  );

/**
 * Announces again the eFTI registrations still waiting a minute after their
 * next attempt was due (the announcement lost, the gate down past the
 * message's retries, or a mark lost): the consumer sends them, built from
 * the documents as they then are. A row whose message is still retrying is
 * not due yet: one chain of attempts a row. Nothing while no gate is
 * configured.
 */
export const resendLostRegistrations = async (
  services: RecoveryServices & Pick<Services, "eftiGate">,
  budget: QueryBudget,
): Promise<number> =>
  services.eftiGate === null
    ? 0
    : sendAgain(services, budget, async (shard, before) =>
        documentMessages(
          "efti_registration",
          await findStaleUnsentDocuments(shard, before, EVENTS_PER_SHARD),
        ),
      );

/**
 * Sends again the message of each pending delivery overdue by a minute (its
 * message lost, or its attempt's record). A message that was only late
 * finds its delivery settled or not yet due, and does nothing.
 */
export const resendLostDeliveries = (
  services: RecoveryServices,
  budget: QueryBudget,
): Promise<number> =>
  sendAgain(services, budget, async (shard, before) =>
    (await findOverdueDeliveries(shard, before, DELIVERIES_PER_SHARD)).map(
      (delivery) => ({ kind: "delivery", ...delivery }),
    ),
  );
