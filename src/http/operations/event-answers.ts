import type { ErrorCode } from "../../errors";

// What the operations on events have in common (docs/api.md, Events).

export const EVENT_TAGS = ["events"];

/** A key's rate limit; a demo token, or an IP off the key's list, is refused. */
export const EVENT_CODES: ErrorCode[] = [
  "RATE_LIMITED",
  "IP_NOT_ALLOWED",
  "DEMO_NOT_ALLOWED",
];
