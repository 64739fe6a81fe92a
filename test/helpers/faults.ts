import { env } from "cloudflare:test";
import { shardBindings } from "../../src/db/client";

type Methods = Record<PropertyKey, unknown>;

/** A binding with `methods` replaced, everything else passing through to the real one. */
function replacing<T extends object>(binding: T, methods: Methods): T {
  return new Proxy(binding, {
    get(target, property) {
      if (Object.hasOwn(methods, property)) {
        return methods[property as string];
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

/** A statement that binds as the real one does, and whose every execution fails with `message`. */
const failingWith = (
  statement: D1PreparedStatement,
  message: string,
): D1PreparedStatement => {
  const fail = () => Promise.reject(new Error(message));
  return replacing(statement, {
    bind: (...values: unknown[]) =>
      failingWith(statement.bind(...values), message),
    run: fail,
    all: fail,
    first: fail,
    raw: fail,
  });
};

/** A statement that binds as the real one does, and whose every execution fails. */
const unreachable = (statement: D1PreparedStatement): D1PreparedStatement =>
  failingWith(statement, D1_OUTAGE);

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

/** What D1 answers a statement that binds a value over its limit. */
const D1_TOO_BIG = "D1_ERROR: string or blob too big: SQLITE_TOOBIG";

const byteLength = (value: unknown): number =>
  typeof value === "string"
    ? new TextEncoder().encode(value).byteLength
    : value instanceof ArrayBuffer
      ? value.byteLength
      : 0;

/**
 * The bindings with D1's limit on one bound value, a string or blob of at
 * most `maxBytes` (2,000,000 on Cloudflare, which local D1 does not
 * enforce): a statement binding a larger one fails as D1 answers it.
 */
export const d1BoundValueLimit = (maxBytes = 2_000_000): Env => ({
  ...env,
  ...everyShard((shard) =>
    replacing(shard, {
      prepare: (query: string) => {
        const statement = shard.prepare(query);
        return replacing(statement, {
          bind: (...values: unknown[]) =>
            values.some((value) => byteLength(value) > maxBytes)
              ? failingWith(statement.bind(...values), D1_TOO_BIG)
              : statement.bind(...values),
        });
      },
    }),
  ),
});

/** The real statement behind a wrapped one, and its SQL. */
const UNDERLYING = Symbol("underlying statement");

/** A D1 call with the SQL of its statements: `run` sends it to the real shard. */
type Around = (sql: string[], run: () => Promise<unknown>) => Promise<unknown>;

/**
 * The bindings with every call that reaches a D1 shard (a statement's run,
 * all, first or raw, a batch, an exec) going through `around`, which sees
 * the SQL it carries.
 */
function interposed(around: Around): Env {
  // A batch takes the real statements behind the wrapped ones.
  const wrapping = (
    statement: D1PreparedStatement,
    sql: string,
  ): D1PreparedStatement => {
    const through =
      (method: "run" | "all" | "first" | "raw") =>
      (...args: unknown[]) =>
        around([sql], () =>
          Reflect.apply(
            statement[method] as (...args: unknown[]) => Promise<unknown>,
            statement,
            args,
          ),
        );
    return replacing(statement, {
      bind: (...values: unknown[]) => wrapping(statement.bind(...values), sql),
      run: through("run"),
      all: through("all"),
      first: through("first"),
      raw: through("raw"),
      // Read through any proxy the app puts around the statement.
      [UNDERLYING]: { statement, sql },
    });
  };
  return {
    ...env,
    ...everyShard((shard) =>
      replacing(shard, {
        prepare: (query: string) => wrapping(shard.prepare(query), query),
        batch: (statements: D1PreparedStatement[]) => {
          const reals = statements.map(
            (statement) =>
              Reflect.get(statement, UNDERLYING) as {
                statement: D1PreparedStatement;
                sql: string;
              },
          );
          return around(
            reals.map(({ sql }) => sql),
            () => shard.batch(reals.map(({ statement }) => statement)),
          );
        },
        exec: (query: string) => around([query], () => shard.exec(query)),
      }),
    ),
  };
}

/** What D1 answers when the connection drops, whether or not the write was applied. */
const D1_CONNECTION_LOST = "Network connection lost.";

const matching = (statements: string[], sql: RegExp) =>
  statements.some((statement) => sql.test(statement));

/**
 * The bindings with every D1 call whose SQL matches `sql` applied, then
 * answered with a lost connection: the ambiguous failure of production.
 * With `thenDown`, D1 is unreachable for every call after the first lost one.
 */
export const d1Lost = (
  sql: RegExp,
  options: { thenDown?: boolean } = {},
): Env => {
  let lost = false;
  return interposed(async (statements, run) => {
    if (lost && options.thenDown) throw new Error(D1_OUTAGE);
    const result = await run();
    if (matching(statements, sql)) {
      lost = true;
      throw new Error(D1_CONNECTION_LOST);
    }
    return result;
  });
};

/**
 * The bindings with every D1 call whose SQL matches `sql` refused before it
 * is applied (an outage), the others sent as they are.
 */
export const d1Refuses = (sql: RegExp): Env =>
  interposed(async (statements, run) => {
    if (matching(statements, sql)) throw new Error(D1_OUTAGE);
    return run();
  });

/** The bindings with D1 unreachable for every call after the first whose SQL matches `sql`. */
export const d1DownAfter = (sql: RegExp): Env => {
  let down = false;
  return interposed(async (statements, run) => {
    if (down) throw new Error(D1_OUTAGE);
    down = matching(statements, sql);
    return run();
  });
};

/**
 * The bindings with `hook` run once, just before the first D1 call whose SQL
 * matches `sql` is sent: another request landing at that very moment.
 */
export const d1Before = (sql: RegExp, hook: () => Promise<void>): Env => {
  let fired = false;
  return interposed(async (statements, run) => {
    if (!fired && matching(statements, sql)) {
      fired = true;
      await hook();
    }
    return run();
  });
};

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
  return {
    bindings: interposed((_sql, run) => {
      held++;
      return gate.then(run);
    }),
    release,
    held: () => held,
  };
}
