/** The one source of the current time, so that window rules are tested without sleeping. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 in UTC with milliseconds and `Z`, the API's time format. */
export const toIsoTime = (epochMs: number): string =>
  new Date(epochMs).toISOString();

/** A wall clock's reading, to the minute: each part as it shows it, two digits (the year four). */
export type WallTime = Record<
  "year" | "month" | "day" | "hour" | "minute",
  string
>;

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** What the clocks of `timeZone` showed at `epochMs`, to the minute (a formatter built once per zone: building one is slow). */
export function wallTimeIn(timeZone: string, epochMs: number): WallTime {
  let clock = wallClocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    wallClocks.set(timeZone, clock);
  }
  return Object.fromEntries(
    clock.formatToParts(epochMs).map(({ type, value }) => [type, value]),
  ) as WallTime;
}
