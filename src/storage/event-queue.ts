import type { EventMessage } from "../schemas/event-message";

/** The events queue of the EVENTS binding, as the rules use it. */
export const createEventQueue = (queue: Queue<EventMessage>) => ({
  async send(
    messages: readonly EventMessage[],
    options: { delaySeconds?: number } = {},
  ): Promise<void> {
    if (messages.length === 0) return;
    await queue.sendBatch(
      messages.map((body) => ({
        body,
        contentType: "json" as const,
        ...options,
      })),
    );
  },
});
