// The Worker's bindings for `npm run bench:cpu`, served by another process:
// one Miniflare instance (workerd) on a temporary state, running the Worker of
// bench/binding-server.ts with wrangler.toml's D1 shards, R2 buckets, events
// queue and RATE_LIMITER Durable Object (its class from src/durable-objects),
// and the Workers cache. The benchmark's Node process reaches them through
// bench/binding-client.ts, one HTTP request a call. (Miniflare's own binding
// proxy, which wrangler's getPlatformProxy hands out, makes a statement's
// prepare and bind, and every property read, synchronous round trips through
// a worker thread: some 14 ms of CPU a D1 query, a third of it after the call
// returns, too much to subtract from a Worker's 1 to 10 ms.)
import { join } from "node:path";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";
import { newKeyring } from "../scripts/lib/keyring";
import { prepareLocalState } from "../scripts/lib/local-state";
import { newSealKeyring } from "../scripts/lib/seal-keyring";
import { API_CONFIG } from "../scripts/lib/workers";
import { type ClientCpu, remoteBindings } from "./binding-client";

/** What the benchmark reads of wrangler.toml (wrangler's config type does not resolve). */
interface ApiConfig {
  compatibility_date: string;
  vars: Record<string, string>;
  d1_databases: { binding: string; database_id: string }[];
  r2_buckets: { binding: string; bucket_name: string }[];
  queues: { producers: { binding: string; queue: string }[] };
  durable_objects: { bindings: { name: string; class_name: string }[] };
}

const RATE_LIMITER = "RATE_LIMITER";

/** bench/binding-server.ts as one ES module's source, `cloudflare:workers` left to workerd. */
async function bundleServer(): Promise<string> {
  const { outputFiles } = await build({
    entryPoints: [new URL("./binding-server.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "neutral",
    external: ["cloudflare:workers"],
    write: false,
  });
  const [module] = outputFiles;
  if (!module) throw new Error("esbuild bundled no binding server");
  return module.text;
}

export interface WorkerBindings {
  /** The API Worker's env: wrangler.toml's vars, new local secrets, the bindings. */
  env: Env;
  /** The Workers cache, `caches.default`. */
  edgeCache: Cache;
  dispose(): Promise<void>;
}

/**
 * The bindings of a fresh local state in `directory`: the shards migrated
 * and the fallback fonts put as `npm start` does (prepareLocalState), then
 * served by one Miniflare instance; new keyrings as `npm start` writes them.
 * `cpu` counts what their client spends.
 */
export async function startWorkerBindings(
  directory: string,
  cpu: ClientCpu,
): Promise<WorkerBindings> {
  await prepareLocalState(directory);
  const config = unstable_readConfig(
    { config: API_CONFIG },
    { hideWarnings: true },
  ) as unknown as ApiConfig;
  const limiter = config.durable_objects.bindings.find(
    (binding) => binding.name === RATE_LIMITER,
  );
  if (!limiter) throw new Error(`${API_CONFIG} binds no ${RATE_LIMITER}`);
  const d1Databases = Object.fromEntries(
    config.d1_databases.map((shard) => [shard.binding, shard.database_id]),
  );
  const r2Buckets = Object.fromEntries(
    config.r2_buckets.map((bucket) => [bucket.binding, bucket.bucket_name]),
  );
  const queueProducers = Object.fromEntries(
    config.queues.producers.map((producer) => [
      producer.binding,
      { queueName: producer.queue },
    ]),
  );
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: await bundleServer(),
      compatibilityDate: config.compatibility_date,
      // Where prepareLocalState put the shards and the fonts.
      resourcePersistencePath: join(directory, "v3"),
      d1Databases,
      r2Buckets,
      queueProducers,
      durableObjects: {
        [RATE_LIMITER]: { className: limiter.class_name, useSQLite: true },
      },
    }),
  );
  const { bindings, edgeCache } = remoteBindings(
    (await miniflare.ready).href,
    [
      ...Object.keys(d1Databases),
      ...Object.keys(r2Buckets),
      ...Object.keys(queueProducers),
      RATE_LIMITER,
    ],
    cpu,
  );
  const env = {
    ...config.vars,
    ...bindings,
    PDF_KEYRING: newKeyring(),
    QR_KEYRING: newKeyring(),
    SUPPORT_KEYRING: newKeyring(),
    WEBHOOK_KEYRING: newKeyring(),
    GATE_KEYRING: newKeyring(),
    SEAL_KEYRING: await newSealKeyring(),
  } as unknown as Env;
  return { env, edgeCache, dispose: () => miniflare.dispose() };
}
