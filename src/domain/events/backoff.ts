// When a failed delivery is tried again, and when the service gives up
// (docs/webhooks.md): an exponential backoff with jitter, for 3 days.

const SECOND_MS = 1000;
const HOUR_MS = 60 * 60 * SECOND_MS;
const DAY_MS = 24 * HOUR_MS;

const FIRST_RETRY_MS = 5 * SECOND_MS;
const LONGEST_RETRY_MS = HOUR_MS;
// Each delay is drawn within ±20%, so that an endpoint's retries spread out.
const JITTER = 0.2;

/** A delivery whose first attempt is this old when an attempt fails is failed. */
export const RETRY_FOR_MS = 3 * DAY_MS;

/** An endpoint that has failed every attempt for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * DAY_MS;

/**
 * How long after its `attempts`-th failed attempt a delivery is tried again:
 * 5 s, 10 s, 20 s… doubling up to an hour, each within ±20%.
 */
export function retryDelayMs(
  attempts: number,
  random: () => number = Math.random,
): number {
  const delay = Math.min(
    FIRST_RETRY_MS * 2 ** (attempts - 1),
    LONGEST_RETRY_MS,
  );
  return Math.round(delay * (1 - JITTER + 2 * JITTER * random()));
}
