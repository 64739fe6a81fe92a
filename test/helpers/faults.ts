import { env } from "cloudflare:test";
import { shardBindings } from "../../src/db/client";

type Methods = Record<string, (...args: never[]) => unknown>;

/** A binding with `methods` replaced, everything else passing through to the real one. */
function replacing<T extends object>(binding: T, methods: Methods): T {
  return new Proxy(binding, {
    get(target, property) {
      if (typeof property === "string" && Object.hasOwn(methods, property)) {
        return methods[property];
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A binding whose `method` rejects: a storage outage as the code sees it. */
export const failing = <T extends object>(binding: T, method: string): T =>
  replacing(binding, {
    [method]: () => Promise.reject(new Error(`${method} unavailable`)),
  });

/** The bindings with R2 refusing every put. */
export const r2PutDown = (): Env => ({
  ...env,
  PDFS: failing(env.PDFS, "put"),
});

/** The bindings with R2 storing each put but reporting it failed (a timeout after the write). */
export const r2PutLost = (): Env => ({
  ...env,
  PDFS: replacing(env.PDFS, {
    put: async (...args: Parameters<R2Bucket["put"]>) => {
      await env.PDFS.put(...args);
      throw new Error("put timed out");
    },
  }),
});

/** Every D1 shard binding, each replaced by `wrap` of it. */
const everyShard = (wrap: (shard: D1Database) => D1Database) =>
  Object.fromEntries(
    shardBindings(env).map((shard, index) => [`DB_${index}`, wrap(shard)]),
  );

/** The bindings with every D1 batch (the writes of issuing and deleting) failing. */
export const d1WritesDown = (): Env => ({
  ...env,
  ...everyShard((shard) => failing(shard, "batch")),
});

/** What D1 answers when it cannot take the query. */
export const D1_OUTAGE = "D1 DB is overloaded. Too many requests queued.";

const overloaded = () => Promise.reject(new Error(D1_OUTAGE));

/** A statement that binds as the real one does, and whose every execution fails. */
const unreachable = (statement: D1PreparedStatement): D1PreparedStatement =>
  replacing(statement, {
    bind: (...values: unknown[]) => unreachable(statement.bind(...values)),
    run: overloaded,
    all: overloaded,
    first: overloaded,
    raw: overloaded,
  });

/** A shard's `prepare`, whose statements matching `sql` are unreachable. */
const preparingUnreachable =
  (shard: D1Database, sql: RegExp) =>
  (query: string): D1PreparedStatement => {
    const statement = shard.prepare(query);
    return sql.test(query) ? unreachable(statement) : statement;
  };

/**
 * The bindings with D1 overloaded for every statement whose SQL matches
 * `sql` (all of them by default), and for every batch.
 */
export const d1Down = (sql = /./): Env => ({
  ...env,
  ...everyShard((shard) =>
    replacing(shard, {
      prepare: preparingUnreachable(shard, sql),
      batch: overloaded,
    }),
  ),
});

/** The bindings with every reference and document lock object unreachable. */
export const locksDown = (): Env => ({
  ...env,
  LOCKS: replacing(env.LOCKS, {
    get: () => ({
      acquire: () => Promise.reject(new Error("Durable Object unreachable")),
      release: () => Promise.resolve(),
    }),
  }),
});

/** The bindings with every rate limiter object unreachable. */
export const rateLimiterDown = (): Env => ({
  ...env,
  RATE_LIMITER: replacing(env.RATE_LIMITER, {
    get: () => ({
      consume: () => Promise.reject(new Error("Durable Object unreachable")),
    }),
  }),
});

/** The bindings with R2 refusing every read. */
export const r2GetDown = (): Env => ({
  ...env,
  PDFS: failing(env.PDFS, "get"),
});

/**
 * The bindings with D1 overloaded only for the single statements whose SQL
 * matches `sql`; batches (the commits) still run.
 */
export const d1StatementsDown = (sql: RegExp): Env => ({
  ...env,
  ...everyShard((shard) =>
    replacing(shard, { prepare: preparingUnreachable(shard, sql) }),
  ),
});

/**
 * The bindings with every D1 call held until `release()`: what a request
 * awaits of D1 does not come back before then. `held()` counts the calls
 * made so far.
 */
export function d1Held(): {
  bindings: Env;
  release: () => void;
  held: () => number;
} {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  const after = <T>(work: () => Promise<T>): Promise<T> => {
    held++;
    return gate.then(work);
  };
  // A batch takes the real statements behind the held ones.
  const real = new WeakMap<object, D1PreparedStatement>();
  const holding = (statement: D1PreparedStatement): D1PreparedStatement => {
    const heldCall =
      (method: "run" | "all" | "first" | "raw") =>
      (...args: unknown[]) =>
        after(() =>
          Reflect.apply(
            statement[method] as (...args: unknown[]) => Promise<unknown>,
            statement,
            args,
          ),
        );
    const proxy = replacing(statement, {
      bind: (...values: unknown[]) => holding(statement.bind(...values)),
      run: heldCall("run"),
      all: heldCall("all"),
      first: heldCall("first"),
      raw: heldCall("raw"),
    });
    real.set(proxy, statement);
    return proxy;
  };
  return {
    bindings: {
      ...env,
      ...everyShard((shard) =>
        replacing(shard, {
          prepare: (query: string) => holding(shard.prepare(query)),
          batch: (statements: D1PreparedStatement[]) =>
            after(() =>
              shard.batch(
                statements.map((statement) => real.get(statement) ?? statement),
              ),
            ),
          exec: (query: string) => after(() => shard.exec(query)),
        }),
      ),
    },
    release,
    held: () => held,
  };
}
