import { env } from "cloudflare:test";

/** A binding with `method` replaced, everything else passing through to the real one. */
function replacing<T extends object>(
  binding: T,
  method: string,
  implementation: (...args: unknown[]) => unknown,
): T {
  return new Proxy(binding, {
    get(target, property) {
      if (property === method) return implementation;
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A binding whose `method` rejects: a storage outage as the code sees it. */
export const failing = <T extends object>(binding: T, method: string): T =>
  replacing(binding, method, () =>
    Promise.reject(new Error(`${method} unavailable`)),
  );

/** The bindings with R2 refusing every put. */
export const r2PutDown = (): Env => ({
  ...env,
  PDFS: failing(env.PDFS, "put"),
});

/** The bindings with R2 storing each put but reporting it failed (a timeout after the write). */
export const r2PutLost = (): Env => ({
  ...env,
  PDFS: replacing(env.PDFS, "put", async (...args: unknown[]) => {
    await env.PDFS.put(...(args as Parameters<R2Bucket["put"]>));
    throw new Error("put timed out");
  }),
});

/** The bindings with every D1 batch (the writes of issuing and deleting) failing. */
export const d1WritesDown = (): Env => ({
  ...env,
  DB: failing(env.DB, "batch"),
});

/** The bindings with every reference and document lock object unreachable. */
export const locksDown = (): Env => ({
  ...env,
  LOCKS: replacing(env.LOCKS, "get", () => ({
    acquire: () => Promise.reject(new Error("Durable Object unreachable")),
    release: () => Promise.resolve(),
  })),
});

/** The bindings with every rate limiter object unreachable. */
export const rateLimiterDown = (): Env => ({
  ...env,
  RATE_LIMITER: replacing(env.RATE_LIMITER, "get", () => ({
    consume: () => Promise.reject(new Error("Durable Object unreachable")),
  })),
});

/** The bindings with R2 refusing every read. */
export const r2GetDown = (): Env => ({
  ...env,
  PDFS: failing(env.PDFS, "get"),
});
