import { toIsoTime } from "../../clock";
import type { EventDeliveries } from "../../db/event-log";
import type { EventDetail } from "../../schemas/event-result";
import { eventPayload } from "./payload";

/** An event as the events API shows it: its payload, and each delivery with its attempts. */
export function eventDetail({
  event,
  deliveries,
  attempts,
}: EventDeliveries): EventDetail {
  return {
    ...eventPayload(event),
    deliveries: deliveries.map((delivery) => ({
      endpoint_id: delivery.endpointId,
      status: delivery.status,
      attempts: attempts
        .filter((attempt) => attempt.endpointId === delivery.endpointId)
        .map((attempt) => ({
          attempted_at: toIsoTime(attempt.attemptedAt),
          status_code: attempt.statusCode,
          error: attempt.error,
          duration_ms: attempt.durationMs,
        })),
      next_attempt_at:
        delivery.nextAttemptAt === null
          ? null
          : toIsoTime(delivery.nextAttemptAt),
    })),
  };
}
