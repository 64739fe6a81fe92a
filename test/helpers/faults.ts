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

/** What D1 answers when the connection drops, possibly after applying the write. */
const D1_LOST = "Network connection lost.";

// The method by which a wrapped statement gives the real one it wraps (bound
// as it is), asked by a batch through whatever wraps it on its way.
const REAL_STATEMENT = "realStatement";

/** The real statements behind `statements`, for a batch. */
const realStatements = (statements: D1PreparedStatement[]) =>
  statements.map((statement) => {
    const real = Reflect.get(statement, REAL_STATEMENT);
    return typeof real === "function"
      ? (real() as D1PreparedStatement)
      : statement;
  });

/**
 * `statement` binding as it does (its bound statements alike), each
 * execution (run, all, first, raw) going through `around`.
 */
function executingThrough(
  statement: D1PreparedStatement,
  around: (execute: () => Promise<unknown>) => Promise<unknown>,
): D1PreparedStatement {
  const execution =
    (method: "run" | "all" | "first" | "raw") =>
    (...args: unknown[]) =>
      around(() =>
        Reflect.apply(
          statement[method] as (...a: unknown[]) => Promise<unknown>,
          statement,
          args,
        ),
      );
  return replacing(statement, {
    bind: (...values: unknown[]) =>
      executingThrough(statement.bind(...values), around),
    run: execution("run"),
    all: execution("all"),
    first: execution("first"),
    raw: execution("raw"),
    [REAL_STATEMENT]: () => statement,
  });
}

/** `work` done, then its answer lost. */
const applied =
  <T>(work: () => Promise<T>) =>
  async (): Promise<never> => {
    await work();
    throw new Error(D1_LOST);
  };

/**
 * A shard whose statements matching `sql`, run alone or in a batch, are
 * applied and then answered D1_LOST: the write took effect, its caller
 * cannot know it.
 */
function losingAnswers(shard: D1Database, sql: RegExp): D1Database {
  const losing = (statement: D1PreparedStatement): D1PreparedStatement =>
    executingThrough(statement, (execute) => applied(execute)());
  return replacing(shard, {
    prepare: (query: string) => {
      const statement = shard.prepare(query);
      return sql.test(query) ? losing(statement) : statement;
    },
    batch: (statements: D1PreparedStatement[]) => {
      const real = realStatements(statements);
      const run = () => shard.batch(real);
      // A batch with a losing statement loses its whole answer.
      return real.some((statement, index) => statement !== statements[index])
        ? applied(run)()
        : run();
    },
  });
}

/**
 * The bindings with every D1 statement whose SQL matches `sql` (all by
 * default), alone or in a batch, applied and then answered "Network
 * connection lost.": how D1 fails ambiguously.
 */
export const d1AnswersLost = (sql = /./): Env => ({
  ...env,
  ...everyShard((shard) => losingAnswers(shard, sql)),
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
  const holding = (statement: D1PreparedStatement): D1PreparedStatement =>
    executingThrough(statement, after);
  return {
    bindings: {
      ...env,
      ...everyShard((shard) =>
        replacing(shard, {
          prepare: (query: string) => holding(shard.prepare(query)),
          batch: (statements: D1PreparedStatement[]) =>
            after(() => shard.batch(realStatements(statements))),
          exec: (query: string) => after(() => shard.exec(query)),
        }),
      ),
    },
    release,
    held: () => held,
  };
}
