// The benchmarked Workers' bindings in the Node process of `npm run bench:cpu`:
// D1 shards, R2 buckets, the rate limiter's Durable Object namespace, the
// events queue and the Workers cache, each call one HTTP request to the
// Worker of bench/binding-server.ts in workerd, as on Cloudflare each is a
// message to another process. What is local on Cloudflare is local here
// (preparing and binding a statement, naming a Durable Object).
//
// The CPU this client spends on a call, from its start to its settlement
// (serializing, the HTTP exchange, parsing), is counted apart so that the
// benchmark can subtract it: requests run one at a time and the Worker awaits
// its calls, so the process's CPU while at least one call is pending is the
// client's, plus whatever the Worker computes while a call is in flight
// (bench/README.md).
import {
  type Base64,
  type BindingCall,
  fromWire,
  toWire,
  type WireObject,
  type WireResponse,
  type WireStatement,
} from "./binding-wire";

const base64: Base64 = {
  encode: (bytes) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
      "base64",
    ),
  decode: (text) => new Uint8Array(Buffer.from(text, "base64")),
};

/** The CPU spent in binding calls, counted once however many overlap. */
export class ClientCpu {
  #pending = 0;
  #since: NodeJS.CpuUsage | undefined;
  #spentMs = 0;

  /** CPU milliseconds spent in calls since the last `reset`. */
  get spentMs(): number {
    return this.#spentMs;
  }

  reset(): void {
    this.#spentMs = 0;
  }

  async timed<T>(call: () => Promise<T>): Promise<T> {
    if (this.#pending++ === 0) this.#since = process.cpuUsage();
    try {
      return await call();
    } finally {
      if (--this.#pending === 0 && this.#since) {
        const used = process.cpuUsage(this.#since);
        this.#spentMs += (used.user + used.system) / 1000;
      }
    }
  }
}

type Remote = (
  binding: string,
  method: string,
  args: unknown[],
) => Promise<unknown>;

function remote(url: string, cpu: ClientCpu): Remote {
  return (binding, method, args) =>
    cpu.timed(async () => {
      const call: BindingCall = { binding, method, args };
      const response = await fetch(url, {
        method: "POST",
        body: toWire(call, base64),
      });
      const answer = fromWire<{ result?: unknown; error?: string }>(
        await response.text(),
        base64,
      );
      if (answer.error !== undefined) {
        throw new Error(`${binding} ${method}: ${answer.error}`);
      }
      return answer.result;
    });
}

/** A statement: prepared and bound here, run there. */
function statement(
  call: Remote,
  binding: string,
  sql: string,
  params: unknown[] = [],
): D1PreparedStatement {
  const wire: WireStatement = { sql, params };
  const run =
    (method: string) =>
    (...args: unknown[]) =>
      call(binding, method, [wire, ...args]);
  return {
    wire,
    bind: (...values: unknown[]) => statement(call, binding, sql, values),
    first: run("first"),
    all: run("all"),
    raw: run("raw"),
    run: run("run"),
  } as unknown as D1PreparedStatement;
}

const d1 = (call: Remote, binding: string): D1Database =>
  ({
    prepare: (sql: string) => statement(call, binding, sql),
    batch: (statements: D1PreparedStatement[]) =>
      call(binding, "batch", [
        statements.map((s) => (s as unknown as { wire: WireStatement }).wire),
      ]),
  }) as unknown as D1Database;

/** An R2 object with the fields and the body readers the service uses. */
function r2Object(object: WireObject | null) {
  if (!object) return null;
  const { bytes, ...fields } = object;
  if (!bytes) return fields;
  return {
    ...fields,
    arrayBuffer: async () => bytes.slice().buffer,
    bytes: async () => bytes.slice(),
    text: async () => new TextDecoder().decode(bytes),
  };
}

const r2 = (call: Remote, binding: string): R2Bucket =>
  ({
    get: async (key: string) =>
      r2Object((await call(binding, "get", [key])) as WireObject | null),
    head: async (key: string) =>
      r2Object((await call(binding, "head", [key])) as WireObject | null),
    put: async (key: string, body: BodyInit, options?: R2PutOptions) =>
      r2Object(
        (await call(binding, "put", [
          key,
          body instanceof Uint8Array
            ? body
            : new Uint8Array(await new Response(body).arrayBuffer()),
          options,
        ])) as WireObject | null,
      ),
    delete: (key: string) => call(binding, "delete", [key]),
  }) as unknown as R2Bucket;

/** The rate limiter's objects: named here, their RPC methods called there. */
const durableObjects = (call: Remote, binding: string) =>
  ({
    idFromName: (name: string) => ({ name }),
    get: ({ name }: { name: string }) =>
      new Proxy(
        {},
        {
          get: (_object, method) =>
            method === "then"
              ? undefined
              : (...args: unknown[]) =>
                  call(binding, String(method), [name, ...args]),
        },
      ),
  }) as unknown as DurableObjectNamespace;

const queue = (call: Remote, binding: string): Queue =>
  ({
    send: (...args: unknown[]) => call(binding, "send", args),
    sendBatch: (...args: unknown[]) => call(binding, "sendBatch", args),
  }) as unknown as Queue;

/** `caches.default`, keyed by URL. */
const cache = (call: Remote): Cache =>
  ({
    match: async (key: Request | string) => {
      const cached = (await call("caches.default", "match", [
        typeof key === "string" ? key : key.url,
      ])) as WireResponse | null;
      return cached
        ? new Response(cached.bytes, {
            status: cached.status,
            headers: cached.headers,
          })
        : undefined;
    },
    put: async (key: Request | string, response: Response) =>
      call("caches.default", "put", [
        typeof key === "string" ? key : key.url,
        {
          status: response.status,
          headers: [...response.headers],
          bytes: new Uint8Array(await response.arrayBuffer()),
        } satisfies WireResponse,
      ]),
    delete: (key: Request | string) =>
      call("caches.default", "delete", [
        typeof key === "string" ? key : key.url,
      ]),
  }) as unknown as Cache;

/**
 * The bindings named in `names` (`DB_0`…, `PDFS`, `FONTS`, `RATE_LIMITER`,
 * `EVENTS`) and the Workers cache, served by the Worker at `url`, their
 * client's CPU counted by `cpu`.
 */
export function remoteBindings(url: string, names: string[], cpu: ClientCpu) {
  const call = remote(url, cpu);
  const bindings: Record<string, unknown> = {};
  for (const name of names) {
    if (/^DB_\d+$/.test(name)) bindings[name] = d1(call, name);
    else if (name === "PDFS" || name === "FONTS")
      bindings[name] = r2(call, name);
    else if (name === "RATE_LIMITER")
      bindings[name] = durableObjects(call, name);
    else if (name === "EVENTS") bindings[name] = queue(call, name);
  }
  return { bindings, edgeCache: cache(call) };
}
