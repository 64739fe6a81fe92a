// `npm run bench:cpu`: the Worker's CPU per operation, storage excluded. Both
// Workers' apps, composed as in production (test/helpers/service.ts: the edge
// Worker in front, its service binding calling the API Worker's app), run in
// this Node process; their bindings are served by another process
// (bench/worker-bindings.ts). Each request runs alone after warm-up; its CPU
// is this process's from the request to its answer's last byte and the end of
// its waitUntil work, less what the bindings' client (the proxy) spent in the
// binding calls (bench/binding-client.ts). `--profile` also writes one V8 CPU profile per
// operation (bench/cpu-profile.ts). Merges its figures into bench/results.json
// under "workerCpuStorageExcluded".
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LONG_DOCUMENT } from "../fixtures/documents";
import { groupedRequest, minimalRequest } from "../fixtures/requests";
import { renderDocumentPdf } from "../src/pdf/render-document";
import { createService } from "../test/helpers/service";
import { ClientCpu } from "./binding-client";
import { startProfiling } from "./cpu-profile";
import {
  benchRequest,
  FALLBACK_DOCUMENTS,
  type FallbackFixtureName,
} from "./fixtures";
import { mergeResults, runEnvironment } from "./results";
import { summarize } from "./stats";
import { startWorkerBindings } from "./worker-bindings";

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const WARMUP = 15;
/** Creates before any case: the isolate's code compiled, as a busy Worker's is. */
const ISOLATE_WARMUP = 30;
const ORIGIN = "https://deca.bench";
/** The callers' address, as Cloudflare's edge reports it. */
const CALLER_IP = "192.0.2.10";
/** Past the deletion window and its margin (src/domain/windows.ts): a settled QR link. */
const SETTLED_AFTER_MS = 4 * 60 * 60 * 1000;

/** The waitUntil work of one request, both Workers', awaited to its end. */
function executionContext() {
  const work: Promise<unknown>[] = [];
  const context = {
    waitUntil: (promise: Promise<unknown>) => {
      work.push(promise);
    },
    passThroughOnException: () => undefined,
    props: {},
  } as unknown as ExecutionContext;
  return {
    context,
    async settled(): Promise<void> {
      while (work.length > 0) await Promise.all(work.splice(0));
    },
  };
}

/** A measured request: this process's CPU, and the part of it in the bindings' client. */
interface Sample {
  status: number;
  body: ArrayBuffer;
  cpuMs: number;
  clientMs: number;
}

/**
 * One operation: `prepare` makes what its `count` requests need (documents
 * to correct or delete, demo tokens), unmeasured, and gives the requests.
 */
interface Case {
  name: string;
  status: number;
  prepare: (count: number) => Promise<Request[]>;
}

/** `count` requests made by `make`, in order. */
const each =
  (make: (run: number) => Request | Promise<Request>) =>
  async (count: number): Promise<Request[]> => {
    const requests: Request[] = [];
    for (let run = 0; run < count; run++) requests.push(await make(run));
    return requests;
  };

const json = (body: unknown) => JSON.parse(body as string);

/**
 * The Worker's log lines, counted and not written: workerd hands them to its
 * logging outside the isolate, while Node would write each to stdout with a
 * system call counted in this process's CPU. The line itself is built by the
 * service's code (JSON.stringify), which stays measured.
 */
function countLogLines(): { count: () => number } {
  let lines = 0;
  console.log = () => {
    lines += 1;
  };
  return { count: () => lines };
}

async function main(): Promise<void> {
  const logLines = countLogLines();
  const args = process.argv.slice(2);
  const profile = args.includes("--profile");
  // Operations named on the command line: only those, and no figure kept.
  const only = args.filter((arg) => !arg.startsWith("--"));
  const directory = await mkdtemp(join(tmpdir(), "deca-bench-cpu-"));
  const client = new ClientCpu();
  const bindings = await startWorkerBindings(directory, client);
  try {
    const { env } = bindings;
    let clockOffset = 0;
    const service = createService({
      clock: { now: () => Date.now() + clockOffset },
      renderPdf: renderDocumentPdf,
      edgeCache: bindings.edgeCache,
    });

    async function send(request: Request): Promise<Sample> {
      const { context, settled } = executionContext();
      client.reset();
      const since = process.cpuUsage();
      const response = await service.fetch(request, env, context);
      const body = await response.arrayBuffer();
      await settled();
      const used = process.cpuUsage(since);
      return {
        status: response.status,
        body,
        cpuMs: (used.user + used.system) / 1000,
        clientMs: client.spentMs,
      };
    }

    const request = (
      path: string,
      init: RequestInit & { headers?: Record<string, string> } = {},
      ip = CALLER_IP,
    ) =>
      new Request(new URL(path, ORIGIN), {
        ...init,
        headers: { "CF-Connecting-IP": ip, ...init.headers },
      });
    const withKey = (key: string, method = "GET", body?: unknown) => ({
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    /** `request` sent unmeasured; its JSON body, failing unless it answered `status`. */
    async function expect<T>(status: number, sent: Request): Promise<T> {
      const answer = await send(sent);
      const text = new TextDecoder().decode(answer.body);
      if (answer.status !== status) {
        throw new Error(
          `${sent.method} ${new URL(sent.url).pathname} answered ${answer.status}, not ${status}: ${text.slice(0, 300)}`,
        );
      }
      return (text === "" ? null : json(text)) as T;
    }

    // A live key through the operations API, as the key tool issues one; its
    // own limit lifted so that the runs measure the service, not its limiter.
    const support = json(env.SUPPORT_KEYRING) as {
      current: string;
      keys: Record<string, string>;
    };
    const { key } = await expect<{ key: string }>(
      201,
      request(
        "/ops/v1/keys",
        withKey(support.keys[support.current] ?? "", "POST", {
          organization: "Bench CPU",
          environment: "live",
          allowed_ips: [],
          rate_limit_per_minute: 9_999_999,
        }),
      ),
    );
    const gateKeyring = json(env.GATE_KEYRING) as typeof support;
    const gateKey = gateKeyring.keys[gateKeyring.current] ?? "";

    interface Issued {
      uuid: string;
      url: string;
    }
    const createRequest = (body: unknown) =>
      request("/api/v1/documents", withKey(key, "POST", body));
    const issue = (body: unknown) => expect<Issued>(201, createRequest(body));
    let references = 0;
    /** `body` with a reference no other create of the run has. */
    const referenced = (body: Record<string, unknown>) => ({
      ...body,
      reference: `BENCH-${process.pid}-${references++}`,
    });
    const full = () => referenced(benchRequest("full"));

    const document = await issue(full());
    const { data: datasets } = await expect<{
      data: { dataset_id: string }[];
    }>(200, request(`/api/v1/documents/${document.uuid}/efti`, withKey(key)));
    const datasetId = datasets[0]?.dataset_id ?? "";
    const retried = full();
    await issue(retried);
    const settled = await issue(full());

    const creates: Case[] = [
      {
        name: "createMinimal",
        status: 201,
        prepare: each(() => createRequest(minimalRequest())),
      },
      {
        name: "createFull",
        status: 201,
        prepare: each(() => createRequest(full())),
      },
      {
        name: "createLong",
        status: 201,
        prepare: each(() =>
          createRequest(referenced(structuredClone(LONG_DOCUMENT))),
        ),
      },
      {
        name: "createGrouped40",
        status: 201,
        prepare: each(() => createRequest(groupedRequest(40))),
      },
      {
        name: "createGrouped100",
        status: 201,
        prepare: each(() => createRequest(groupedRequest(100))),
      },
      ...(Object.keys(FALLBACK_DOCUMENTS) as FallbackFixtureName[]).map(
        (name): Case => ({
          name: `createFallback:${name}`,
          status: 201,
          prepare: each(() => createRequest(referenced(benchRequest(name)))),
        }),
      ),
    ];
    const documentPath = `/api/v1/documents/${document.uuid}`;
    const read = (name: string, path: string, auth = key): Case => ({
      name,
      status: 200,
      prepare: each(() => request(path, withKey(auth))),
    });
    const cases: Case[] = [
      {
        // The floor of every request: both Workers' routing, the HTTP
        // layer and the request log, nothing stored.
        name: "notFound",
        status: 404,
        prepare: each(() => request("/nonexistent")),
      },
      ...creates,
      {
        name: "identicalRetry",
        status: 200,
        prepare: each(() => createRequest(retried)),
      },
      {
        name: "correction",
        status: 200,
        prepare: each(async () => {
          const original = await issue(full());
          return request(
            `/api/v1/documents/${original.uuid}`,
            withKey(key, "PUT", { ...full(), observations: "Corregido." }),
          );
        }),
      },
      {
        name: "deletion",
        status: 204,
        prepare: each(async () => {
          const doomed = await issue(full());
          return request(
            `/api/v1/documents/${doomed.uuid}`,
            withKey(key, "DELETE", {
              reason: "El transporte se canceló antes de salir",
              confirm_not_delivered: true,
              confirm_not_used: true,
            }),
          );
        }),
      },
      read("list", "/api/v1/documents"),
      read("get", documentPath),
      read("status", `${documentPath}/status`),
      read("pdfDownload", `${documentPath}/pdf`),
      {
        name: "qrWithinWindow",
        status: 200,
        prepare: each(() => request(document.url)),
      },
      read("eventsList", "/api/v1/events"),
      read("eftiDatasets", `${documentPath}/efti`),
      read("eftiExport", `${documentPath}/efti/${datasetId}`),
      read(
        "gateRead",
        `/efti/v0/consignments/${datasetId}?subsetId=ES01`,
        gateKey,
      ),
      {
        name: "demoCreate",
        status: 201,
        prepare: each(async (run) => {
          // Each token from a network of its own, within the demo's limits.
          const ip = `2001:db8:${run.toString(16)}::7`;
          const { token } = await expect<{ token: string }>(
            201,
            request(
              "/api/v1/demo/tokens",
              {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: "{}",
              },
              ip,
            ),
          );
          return request(
            "/api/v1/documents",
            withKey(token, "POST", minimalRequest()),
            ip,
          );
        }),
      },
      {
        // Last: the clock moves past the deletion window and stays there.
        name: "qrSettled",
        status: 200,
        prepare: async (count) => {
          clockOffset = SETTLED_AFTER_MS;
          return each(() => request(settled.url))(count);
        },
      },
    ];

    for (let run = 0; run < ISOLATE_WARMUP; run++) await issue(full());
    const profiler = profile ? await startProfiling() : undefined;
    const figures: Record<string, unknown> = {};
    const chosen = cases.filter(
      ({ name }) => only.length === 0 || only.includes(name),
    );
    for (const { name, status, prepare } of chosen) {
      const requests = await prepare(WARMUP + RUNS);
      const samples: Sample[] = [];
      for (const [run, sent] of requests.entries()) {
        if (run === WARMUP) await profiler?.start();
        const sample = await send(sent);
        if (sample.status !== status) {
          throw new Error(
            `${name} answered ${sample.status}, not ${status}: ${new TextDecoder().decode(sample.body).slice(0, 300)}`,
          );
        }
        if (run >= WARMUP) samples.push(sample);
      }
      await profiler?.stop(name);
      const storageExcluded = summarize(
        samples.map((sample) => sample.cpuMs - sample.clientMs),
      );
      const withClient = summarize(samples.map((sample) => sample.cpuMs));
      figures[name] = {
        median: storageExcluded.median,
        p99: storageExcluded.p99,
        withProxyMedian: withClient.median,
        withProxyP99: withClient.p99,
      };
      console.error(
        `${name}: median ${storageExcluded.median} ms, p99 ${storageExcluded.p99} ms (with the proxy's: ${withClient.median} / ${withClient.p99} ms)`,
      );
    }
    console.error(
      `bench:cpu: ${logLines.count()} log lines of the Worker counted, not written`,
    );
    // The profiler's sampling slows what it samples: no figure is kept.
    if (profiler) {
      const named = chosen.map(({ name }) => name);
      profiler.report(
        named.includes("createFull") ? "createFull" : (named[0] ?? ""),
      );
    }
    if (!profiler && only.length === 0) {
      await mergeResults({
        workerCpuStorageExcluded: {
          ...runEnvironment(),
          runs: RUNS,
          warmup: WARMUP,
          operations: figures,
        },
      });
    }
  } finally {
    await bindings.dispose();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
