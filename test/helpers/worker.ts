import {
  createExecutionContext,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { exports } from "cloudflare:workers";
import type { Clock } from "../../src/clock";
import type { RenderPdf } from "../../src/domain/documents/render-port";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { checkedAgainstContract } from "./contract";
import { createService } from "./service";

export const ORIGIN = "https://deca.test";

export type Call = (path: string, init?: RequestInit) => Promise<Response>;

/** A request to the deployed Worker (its real clock). */
export const call: Call = async (path, init) => {
  const request = new Request(`${ORIGIN}${path}`, init);
  return checkedAgainstContract(request, await exports.default.fetch(request));
};

/** A clock that stays where it is put. */
export function fixedClock(
  start: number,
): Clock & { set(ms: number): void; advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/**
 * The app with other dependencies (a test clock, failing bindings, renderer
 * or edge cache), on the same local D1, R2 and Durable Objects by default.
 */
export function callWith(options: {
  clock: Clock;
  bindings?: Env;
  renderPdf?: RenderPdf;
  edgeCache?: Cache;
}): Call {
  const service = createService({
    clock: options.clock,
    renderPdf: options.renderPdf ?? renderDocumentPdf,
    edgeCache: options.edgeCache,
  });
  return async (path, init) => {
    const request = new Request(`${ORIGIN}${path}`, init);
    const context = createExecutionContext();
    const response = await service.fetch(
      request,
      options.bindings ?? env,
      context,
    );
    // The work the answer did not wait for is done before the test goes on.
    await waitOnExecutionContext(context);
    return checkedAgainstContract(request, response);
  };
}

/** The app with a test clock. */
export const callWithClock = (clock: Clock, bindings: Env = env): Call =>
  callWith({ clock, bindings });

/** `request` as a caller from `ip`, the address Cloudflare's edge reports. */
export const fromIp =
  (request: Call, ip: string): Call =>
  (path, init) =>
    request(path, {
      ...init,
      headers: {
        ...(init?.headers as Record<string, string>),
        "CF-Connecting-IP": ip,
      },
    });

export const bearer = (key: string, headers: Record<string, string> = {}) => ({
  headers: { Authorization: `Bearer ${key}`, ...headers },
});

/** A JSON request with a Bearer key. */
export const jsonRequest = (
  method: string,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
): RequestInit => ({
  method,
  headers: {
    Authorization: `Bearer ${key}`,
    "Content-Type": "application/json",
    ...headers,
  },
  body: JSON.stringify(body),
});

/**
 * Time for a test that makes hundreds of requests or issues dozens of
 * documents: such a test took about 20 s on a loaded 2-core machine, and
 * twice the project's 60 s leaves room for a slower one.
 */
export const HEAVY_TEST_MS = 120_000;
