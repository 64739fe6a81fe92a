/** The one source of the current time, so that window rules are tested without sleeping. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 in UTC with milliseconds and `Z`, the API's time format. */
export const toIsoTime = (epochMs: number): string =>
  new Date(epochMs).toISOString();
