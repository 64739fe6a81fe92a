import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { createApp } from "../../src/app";
import type { Clock } from "../../src/clock";

export const ORIGIN = "https://deca.test";

/** A request to the deployed Worker (its real clock). */
export const call = (path: string, init?: RequestInit): Promise<Response> =>
  exports.default.fetch(new Request(`${ORIGIN}${path}`, init));

/** A clock that stays where it is put. */
export function fixedClock(start: number): Clock & { set(ms: number): void } {
  let now = start;
  return { now: () => now, set: (ms) => (now = ms) };
}

/** The app with a test clock, on the same local D1, R2 and Durable Objects. */
export function callWithClock(clock: Clock, bindings: Env = env) {
  const app = createApp({ clock });
  return (path: string, init?: RequestInit): Promise<Response> =>
    Promise.resolve(app.fetch(new Request(`${ORIGIN}${path}`, init), bindings));
}

export const bearer = (key: string, headers: Record<string, string> = {}) => ({
  headers: { Authorization: `Bearer ${key}`, ...headers },
});
