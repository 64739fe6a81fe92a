// The bindings' side of `npm run bench:cpu`, a Worker run by Miniflare in
// workerd (bench/worker-bindings.ts): each request is one binding call of the
// benchmarked Workers (bench/binding-wire.ts), made on this Worker's real
// local D1, R2, Durable Object, queue and Workers cache, and answered.
import {
  type Base64,
  type BindingCall,
  fromWire,
  toWire,
  type WireObject,
  type WireResponse,
  type WireStatement,
} from "./binding-wire";

export { RateLimiter } from "../src/durable-objects/rate-limiter";

const base64: Base64 = {
  encode: (bytes) => {
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(text);
  },
  decode: (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0)),
};

type Bindings = Record<string, unknown>;

const objectOf = async (
  object: R2Object | R2ObjectBody | null,
): Promise<WireObject | null> =>
  object && {
    key: object.key,
    size: object.size,
    etag: object.etag,
    customMetadata: object.customMetadata ?? {},
    httpMetadata: object.httpMetadata ?? {},
    ...("arrayBuffer" in object
      ? { bytes: new Uint8Array(await object.arrayBuffer()) }
      : {}),
  };

function d1(database: D1Database, method: string, args: unknown[]) {
  const bound = ({ sql, params }: WireStatement) =>
    database.prepare(sql).bind(...params);
  if (method === "batch") {
    return database.batch((args[0] as WireStatement[]).map(bound));
  }
  const [statement, ...rest] = args as [WireStatement, ...unknown[]];
  const prepared = bound(statement) as unknown as Record<
    string,
    (...a: unknown[]) => Promise<unknown>
  >;
  return prepared[method]?.(...rest);
}

async function r2(bucket: R2Bucket, method: string, args: unknown[]) {
  const [key, ...rest] = args as [string, ...unknown[]];
  switch (method) {
    case "get":
      return objectOf(await bucket.get(key));
    case "head":
      return objectOf(await bucket.head(key));
    case "put":
      return objectOf(
        await bucket.put(
          key,
          rest[0] as Uint8Array,
          rest[1] as R2PutOptions | undefined,
        ),
      );
    case "delete":
      return bucket.delete(key);
  }
  throw new Error(`R2 ${method} is not served`);
}

async function cache(method: string, args: unknown[]) {
  const cached = (caches as unknown as { default: Cache }).default;
  const [url, answer] = args as [string, WireResponse | undefined];
  switch (method) {
    case "match": {
      const response = await cached.match(url);
      return response
        ? ({
            status: response.status,
            headers: [...response.headers],
            bytes: new Uint8Array(await response.arrayBuffer()),
          } satisfies WireResponse)
        : null;
    }
    case "put":
      if (!answer) throw new Error("cache put without an answer");
      return cached.put(
        url,
        new Response(answer.bytes, {
          status: answer.status,
          headers: answer.headers,
        }),
      );
    case "delete":
      return cached.delete(url);
  }
  throw new Error(`cache ${method} is not served`);
}

async function answer(env: Bindings, call: BindingCall): Promise<unknown> {
  const { binding, method, args } = call;
  if (binding === "caches.default") return cache(method, args);
  const target = env[binding];
  if (/^DB_\d+$/.test(binding)) {
    return d1(target as D1Database, method, args);
  }
  if (binding === "PDFS" || binding === "FONTS") {
    return r2(target as R2Bucket, method, args);
  }
  if (binding === "RATE_LIMITER") {
    // The object's name, then the RPC method's arguments.
    const namespace = target as DurableObjectNamespace;
    const [name, ...rest] = args as [string, ...unknown[]];
    const stub = namespace.get(namespace.idFromName(name)) as unknown as Record<
      string,
      (...a: unknown[]) => Promise<unknown>
    >;
    return stub[method]?.(...rest);
  }
  if (binding === "EVENTS") {
    const queue = target as unknown as Record<
      string,
      (...a: unknown[]) => Promise<unknown>
    >;
    return queue[method]?.(...args);
  }
  throw new Error(`${binding} is not served`);
}

export default {
  async fetch(request: Request, env: Bindings): Promise<Response> {
    try {
      const call = fromWire<BindingCall>(await request.text(), base64);
      return new Response(
        toWire({ result: (await answer(env, call)) ?? null }, base64),
      );
    } catch (error) {
      return new Response(toWire({ error: String(error) }, base64));
    }
  },
};
