import type { EventMessage } from "../schemas/event-message";

// Cloudflare Queues delays a message by at most 12 hours, and takes at most
// 100 messages a call.
const MAX_DELAY_SECONDS = 43_200;
const MAX_BATCH_MESSAGES = 100;

/** The events queue of the EVENTS binding, as the rules use it. */
export const createEventQueue = (queue: Queue<EventMessage>) => ({
  async send(
    messages: readonly EventMessage[],
    options: { delaySeconds?: number } = {},
  ): Promise<void> {
    if (messages.length === 0) return;
    const delay =
      options.delaySeconds === undefined
        ? {}
        : {
            delaySeconds: Math.min(
              MAX_DELAY_SECONDS,
              Math.max(0, Math.ceil(options.delaySeconds)),
            ),
          };
    for (let start = 0; start < messages.length; start += MAX_BATCH_MESSAGES) {
      await queue.sendBatch(
        messages
          .slice(start, start + MAX_BATCH_MESSAGES)
          .map((body) => ({ body, contentType: "json" as const, ...delay })),
      );
    }
  },
});
