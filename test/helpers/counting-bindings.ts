// The Worker's bindings with every call that leaves the Worker on Cloudflare
// (a D1 statement or batch, an R2 object call, a Durable Object request, a
// send to a queue) recorded, so that a test can count an operation's round trips and the
// longest chain of them the answer waits for (docs/performance.md).
//
// Locally every such call is a function call in the same process: the
// figures are counts of calls, not times. How a call is placed:
// - depth: 1 + the greatest depth of the calls whose result the Worker had
//   received before it started (calls started while another is in flight
//   run in parallel with it);
// - background: the answer was returned without it (waitUntil work).
// To tell the two apart the ledger hands each result over only when the
// Worker waits for nothing else (`measureRequest`), the newest call first:
// a call the answer waits for is then handed over before the answer, one the
// answer does not wait for is still held when the answer comes. (One left to
// the background while an earlier call the answer waits for is in flight is
// handed over first, and counted as waited for: the ledger sees no further.)

/** One call that would be a round trip on Cloudflare. */
export interface RemoteCall {
  /** `D1 select documents`, `PDFS put`, `RATE_LIMITER consume`. */
  label: string;
  depth: number;
  background: boolean;
}

interface Pending {
  call: RemoteCall;
  /** The real call has answered (or failed). */
  done: boolean;
  handOver: () => void;
}

// How long no new call may start, while calls are held, before the Worker
// counts as waiting on them: longer than its own work between two calls that
// are both in flight (hashing, JSON), on a loaded machine too.
const QUIET_MS = 10;

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Whether calls are recorded, and held until the Worker waits for them. */
type Mode = "off" | "before-answer" | "after-answer";

/** What one request's calls were, as `measureRequest` records them. */
export class CallLedger {
  #mode: Mode = "off";
  #calls: RemoteCall[] = [];
  #held: Pending[] = [];
  /** Depth of every call handed over so far in this measurement. */
  #deepestHandedOver = 0;
  #lastStartAt = 0;

  /** Runs `operation`, recorded (and held) while `measureRequest` is on. */
  track<T>(label: string, operation: () => Promise<T>): Promise<T> {
    if (this.#mode === "off") return operation();
    const call: RemoteCall = {
      label,
      depth: this.#deepestHandedOver + 1,
      background: this.#mode === "after-answer",
    };
    this.#calls.push(call);
    this.#lastStartAt = Date.now();
    const result = operation();
    if (call.background) return result;
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        call,
        done: false,
        handOver: () => {
          this.#deepestHandedOver = Math.max(
            this.#deepestHandedOver,
            call.depth,
          );
          result.then(resolve, reject);
        },
      };
      this.#held.push(pending);
      const settle = () => {
        pending.done = true;
      };
      result.then(settle, settle);
    });
  }

  /**
   * The calls of `request` (which returns the answer) and of `afterAnswer`
   * (the work the answer did not wait for, such as the execution context's).
   */
  async measureRequest<T>(
    request: () => Promise<T>,
    afterAnswer: () => Promise<void>,
  ): Promise<{ answer: T; calls: RemoteCall[] }> {
    this.#calls = [];
    this.#held = [];
    this.#deepestHandedOver = 0;
    this.#mode = "before-answer";
    try {
      let answered = false;
      const answering = request().finally(() => {
        answered = true;
      });
      // A rejection is the caller's, once every call is accounted for.
      answering.catch(() => undefined);
      while (!answered) {
        if (await this.#waitingOnHeldCallsOnly(() => answered)) {
          // The newest first: see the comment at the top of this file.
          this.#held.pop()?.handOver();
        }
      }
      for (const { call } of this.#held) call.background = true;
      this.#mode = "after-answer";
      for (const pending of this.#held.splice(0)) pending.handOver();
      await afterAnswer();
      return { answer: await answering, calls: this.#calls };
    } finally {
      this.#mode = "off";
    }
  }

  /**
   * Whether the Worker now waits for held calls only: each has answered, and
   * for a few macrotasks and some milliseconds no new call started.
   */
  async #waitingOnHeldCallsOnly(answered: () => boolean): Promise<boolean> {
    const calls = this.#calls.length;
    for (let tick = 0; tick < 3; tick++) await macrotask();
    while (this.#held.some((pending) => !pending.done)) await macrotask();
    while (Date.now() - this.#lastStartAt < QUIET_MS) await macrotask();
    return !answered() && this.#held.length > 0 && this.#calls.length === calls;
  }
}

/** `select documents`, `insert reservations`: what a statement does, to what. */
export function statementLabel(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? "sql";
  const table = /\b(?:from|into|update)\s+["`]?(\w+)/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb;
}

const REAL = Symbol("real statement");

type Statement = D1PreparedStatement & { [REAL]?: D1PreparedStatement };

/** A method call on `target`, as native objects want it (`this` the target). */
const callOn = (target: object, property: PropertyKey, args: unknown[]) =>
  Reflect.apply(
    Reflect.get(target, property) as (...a: unknown[]) => unknown,
    target,
    args,
  );

/**
 * `target` with each method call going through `method`, and `own` in place
 * of some of its properties; any other property as it is. `then` is never a
 * method: none of these objects is a promise.
 */
function intercepted<T extends object>(
  target: T,
  method: (property: PropertyKey, args: unknown[]) => unknown,
  own: Record<PropertyKey, unknown> = {},
): T {
  return new Proxy(target, {
    get(object, property) {
      if (property in own) return own[property];
      const value = Reflect.get(object, property);
      if (property === "then" || typeof value !== "function") return value;
      return (...args: unknown[]) => method(property, args);
    },
  });
}

/** A statement: bind is local, first, run, all and raw one round trip each. */
function countingStatement(
  ledger: CallLedger,
  binding: string,
  sql: string,
  statement: D1PreparedStatement,
): Statement {
  return intercepted(
    statement,
    (property, args) => {
      const result = () => callOn(statement, property, args);
      if (property !== "bind") {
        return ledger.track(
          `${binding} ${statementLabel(sql)}`,
          result as () => Promise<unknown>,
        );
      }
      const bound = result() as D1PreparedStatement;
      return countingStatement(ledger, binding, sql, bound);
    },
    { [REAL]: statement },
  );
}

/** A D1 database or session: prepare is local, a batch one round trip. */
function countingD1<T extends object>(
  ledger: CallLedger,
  binding: string,
  database: T,
): T {
  return intercepted(database, (property, args) => {
    const result = () => callOn(database, property, args);
    switch (property) {
      case "prepare": {
        const [sql] = args as [string];
        const statement = result() as D1PreparedStatement;
        return countingStatement(ledger, binding, sql, statement);
      }
      case "batch": {
        const [statements] = args as [Statement[]];
        const real = statements.map((s) => s[REAL] ?? s);
        return ledger.track(
          `${binding} batch(${real.length})`,
          () => callOn(database, property, [real]) as Promise<unknown>,
        );
      }
      case "withSession":
        return countingD1(ledger, binding, result() as object);
      case "getBookmark":
        return result();
      default:
        // exec, dump: remote.
        return ledger.track(
          `${binding} ${String(property)}`,
          result as () => Promise<unknown>,
        );
    }
  });
}

/**
 * An R2 object with its body already read, so that reading it is part of
 * the `get` (one round trip) and not a wait the ledger cannot see.
 */
async function readBody(
  object: R2ObjectBody | R2Object | null,
): Promise<R2ObjectBody | R2Object | null> {
  if (!object || !("arrayBuffer" in object)) return object;
  const bytes = new Uint8Array(await object.arrayBuffer());
  const copy = () => bytes.slice();
  return intercepted(
    object,
    (property, args) => callOn(object, property, args),
    {
      body: new Response(copy()).body,
      bodyUsed: false,
      arrayBuffer: async () => copy().buffer,
      bytes: async () => copy(),
      text: async () => new TextDecoder().decode(bytes),
      json: async () => JSON.parse(new TextDecoder().decode(bytes)),
      blob: async () => new Blob([copy()]),
    },
  );
}

const R2_CALLS = new Set(["get", "put", "head", "delete", "list"]);

function countingR2(
  ledger: CallLedger,
  binding: string,
  bucket: R2Bucket,
): R2Bucket {
  return intercepted(bucket, (property, args) => {
    if (!R2_CALLS.has(String(property))) return callOn(bucket, property, args);
    return ledger.track(`${binding} ${String(property)}`, async () => {
      const result = await callOn(bucket, property, args);
      return property === "get"
        ? readBody(result as R2ObjectBody | null)
        : result;
    });
  });
}

/**
 * A Durable Object stub or a queue: each call (a request, an RPC method, a
 * send of one message or a batch) one round trip.
 */
const countingCalls = <T extends object>(
  ledger: CallLedger,
  binding: string,
  target: T,
): T =>
  intercepted(target, (property, args) =>
    ledger.track(`${binding} ${String(property)}`, () =>
      Promise.resolve(callOn(target, property, args)),
    ),
  );

function countingNamespace<T extends object>(
  ledger: CallLedger,
  binding: string,
  namespace: T,
): T {
  return intercepted(namespace, (property, args) => {
    const result = callOn(namespace, property, args);
    switch (property) {
      case "get":
      case "getByName":
        return countingCalls(ledger, binding, result as object);
      case "jurisdiction":
        return countingNamespace(ledger, binding, result as object);
      default:
        // idFromName, idFromString, newUniqueId: computed locally.
        return result;
    }
  });
}

/**
 * `env` with every D1 shard, both R2 buckets, the rate limiter's Durable
 * Object namespace and the events queue recorded by `ledger`.
 */
export function countingBindings(env: Env, ledger: CallLedger): Env {
  const counted: Record<string, unknown> = { ...env };
  for (const [name, binding] of Object.entries(env)) {
    if (/^DB_\d+$/.test(name)) {
      // Labelled "D1": which shard a document lands in is random.
      counted[name] = countingD1(ledger, "D1", binding as D1Database);
    }
  }
  counted.PDFS = countingR2(ledger, "PDFS", env.PDFS);
  counted.FONTS = countingR2(ledger, "FONTS", env.FONTS);
  counted.RATE_LIMITER = countingNamespace(
    ledger,
    "RATE_LIMITER",
    env.RATE_LIMITER,
  );
  counted.EVENTS = countingCalls(ledger, "EVENTS", env.EVENTS);
  return counted as unknown as Env;
}

/**
 * `env` with the D1 queries of every shard counted, as Cloudflare counts
 * them against an invocation's limit: each statement run, and each
 * statement of a batch.
 */
export function countingD1Queries(env: Env): {
  bindings: Env;
  queries: () => number;
} {
  let queries = 0;
  const statement = <T extends object>(target: T): T =>
    intercepted(target, (property, args) => {
      const result = callOn(target, property, args);
      if (property === "bind") return statement(result as object);
      queries++;
      return result;
    });
  const shard = (database: D1Database): D1Database =>
    intercepted(database, (property, args) => {
      const result = callOn(database, property, args);
      if (property === "prepare") return statement(result as object);
      queries += property === "batch" ? (args[0] as unknown[]).length : 1;
      return result;
    });
  const counted: Record<string, unknown> = { ...env };
  for (const [name, binding] of Object.entries(env)) {
    if (/^DB_\d+$/.test(name)) counted[name] = shard(binding as D1Database);
  }
  return { bindings: counted as unknown as Env, queries: () => queries };
}

/**
 * `env` with its calls to Cloudflare's services counted as Cloudflare counts
 * them against an invocation's limit (src/domain/free-plan.ts): each D1
 * query (as `countingD1Queries`), R2 object call and Durable Object request.
 * A queue's sends are counted by whoever holds the queue.
 */
export function countingServiceCalls(env: Env): {
  bindings: Env;
  calls: () => number;
} {
  const d1 = countingD1Queries(env);
  let others = 0;
  const bucket = (target: R2Bucket): R2Bucket =>
    intercepted(target, (property, args) => {
      if (R2_CALLS.has(String(property))) others++;
      return callOn(target, property, args);
    });
  const stub = <T extends object>(target: T): T =>
    intercepted(target, (property, args) => {
      others++;
      return callOn(target, property, args);
    });
  const namespace = <T extends object>(target: T): T =>
    intercepted(target, (property, args) => {
      const result = callOn(target, property, args);
      return property === "get" || property === "getByName"
        ? stub(result as object)
        : result;
    });
  const bindings: Env = {
    ...d1.bindings,
    PDFS: bucket(env.PDFS),
    FONTS: bucket(env.FONTS),
    RATE_LIMITER: namespace(env.RATE_LIMITER),
    REBALANCE: namespace(env.REBALANCE),
  };
  return { bindings, calls: () => d1.queries() + others };
}
