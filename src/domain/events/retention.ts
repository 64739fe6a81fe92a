/** How long events, their deliveries and their attempts are kept (docs/webhooks.md). */
export const EVENT_RETENTION_DAYS = 30;

export const EVENT_RETENTION_MS = EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000;
