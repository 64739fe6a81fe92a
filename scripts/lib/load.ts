// The load run of `npm run load`: a bounded number of concurrent clients issue,
// retry, correct and delete documents over loopback, then every answer is
// checked against what the service serves back.
import { createHash } from "node:crypto";
import { minimalRequest } from "../../fixtures/requests";
import type { DocumentResult } from "../../src/schemas/document-result";

export interface LoadOptions {
  baseUrl: string;
  key: string;
  creates: number;
  clients: number;
  /** Scheduling stops once this much time has passed; what started finishes. */
  maxMs: number;
}

export interface LoadReport {
  requests: number;
  seconds: number;
  perSecond: number;
  latencyMs: Record<
    string,
    { p50: number; p90: number; p99: number; max: number }
  >;
  statuses: Record<string, number>;
  documents: number;
  lostDocuments: number;
  duplicateReferences: number;
  serverErrors: number;
  wrongPdfs: number;
  listTotal: { expected: number; served: number };
  /** Every QR secret handed out, so that a caller can look for them in the log. */
  qrSecrets: string[];
}

interface Issued {
  uuid: string;
  reference: string | null;
  sha256: string;
  deleted: boolean;
}

type ResultBody = Pick<DocumentResult, "uuid" | "reference" | "url" | "pdf">;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ??
  0;

/** Runs `tasks` with at most `clients` in flight, none started after `deadline`. */
async function pool(
  tasks: (() => Promise<void>)[],
  clients: number,
  deadline: number,
) {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length && Date.now() < deadline) {
      const task = tasks[next++] as () => Promise<void>;
      await task();
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const latencies: Record<string, number[]> = {};
  const statuses: Record<string, number> = {};
  const deadline = Date.now() + options.maxMs;
  const send = async (
    name: string,
    method: string,
    path: string,
    body?: unknown,
  ) => {
    const started = performance.now();
    const response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${options.key}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const measured = latencies[name] ?? [];
    measured.push(performance.now() - started);
    latencies[name] = measured;
    const label = `${name} ${response.status}`;
    statuses[label] = (statuses[label] ?? 0) + 1;
    return { status: response.status, bytes };
  };
  const json = <T>(bytes: Uint8Array) =>
    JSON.parse(new TextDecoder().decode(bytes)) as T;

  const issued = new Map<string, Issued>();
  const uuidsByReference = new Map<string, Set<string>>();
  const qrSecrets: string[] = [];
  const record = (result: ResultBody) => {
    qrSecrets.push(new URL(result.url).searchParams.get("k") ?? "");
    if (!issued.has(result.uuid)) {
      issued.set(result.uuid, {
        uuid: result.uuid,
        reference: result.reference,
        sha256: result.pdf.sha256,
        deleted: false,
      });
    }
    if (result.reference !== null) {
      const uuids = uuidsByReference.get(result.reference) ?? new Set();
      uuidsByReference.set(result.reference, uuids.add(result.uuid));
    }
  };

  // Creates: a fifth without reference, the rest on a pool of references used
  // up to three times: the second use with other data (a 409), the third
  // identical to the first (a retry, 200).
  const run = Date.now().toString(36);
  const poolSize = Math.ceil(options.creates * 0.4);
  const creates = Array.from(
    { length: options.creates },
    (_, i) => async () => {
      const reference = i % 5 === 0 ? null : `LOAD-${run}-${i % poolSize}`;
      const variant = Math.floor(i / poolSize) % 2 === 1 ? "B" : "A";
      const answer = await send("create", "POST", "/api/v1/documents", {
        ...minimalRequest(),
        reference,
        observations: `Carga ${variant}`,
      });
      if (answer.status === 200 || answer.status === 201) {
        record(json<ResultBody>(answer.bytes));
      }
    },
  );
  const started = performance.now();
  await pool(creates, options.clients, deadline);

  // Then corrections of every tenth document and deletions of every tenth other one.
  const firsts = [...issued.values()];
  const changes = firsts.flatMap((document, i) => {
    if (i % 10 === 0) {
      return [
        async () => {
          const answer = await send(
            "correct",
            "PUT",
            `/api/v1/documents/${document.uuid}`,
            {
              ...minimalRequest(),
              reference: document.reference && `${document.reference}-C`,
              observations: "Corregido",
            },
          );
          if (answer.status === 200) record(json<ResultBody>(answer.bytes));
        },
      ];
    }
    if (i % 10 === 5) {
      return [
        async () => {
          const answer = await send(
            "delete",
            "DELETE",
            `/api/v1/documents/${document.uuid}`,
            {
              reason: "Carga anulada",
              confirm_not_delivered: true,
              confirm_not_used: true,
            },
          );
          if (answer.status === 204) document.deleted = true;
        },
      ];
    }
    return [];
  });
  await pool(changes, options.clients, deadline);
  const seconds = (performance.now() - started) / 1000;
  const loadRequests = Object.values(latencies).reduce(
    (n, l) => n + l.length,
    0,
  );

  // Verification: every document answered 200/201 is served back, intact.
  let lostDocuments = 0;
  let wrongPdfs = 0;
  const checks = [...issued.values()].map((document) => async () => {
    const status = await send(
      "verify",
      "GET",
      `/api/v1/documents/${document.uuid}/status`,
    );
    const expected = document.deleted ? "deleted" : "active";
    if (
      status.status !== 200 ||
      json<{ status: string }>(status.bytes).status !== expected
    ) {
      lostDocuments += 1;
      return;
    }
    if (document.deleted) return;
    const pdf = await send(
      "verify",
      "GET",
      `/api/v1/documents/${document.uuid}/pdf`,
    );
    const digest = createHash("sha256").update(pdf.bytes).digest("hex");
    if (pdf.status !== 200) lostDocuments += 1;
    else if (digest !== document.sha256) wrongPdfs += 1;
  });
  await pool(checks, options.clients, Number.POSITIVE_INFINITY);

  let duplicateReferences = 0;
  for (const uuids of uuidsByReference.values())
    if (uuids.size > 1) duplicateReferences += 1;

  const listed = await send("verify", "GET", "/api/v1/documents?limit=1");
  const served = json<{ meta: { total: number } }>(listed.bytes).meta.total;
  const expectedTotal = [...issued.values()].filter((d) => !d.deleted).length;

  const latencyMs = Object.fromEntries(
    Object.entries(latencies).map(([name, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const round = (ms: number) => Math.round(ms * 10) / 10;
      return [
        name,
        {
          p50: round(percentile(sorted, 50)),
          p90: round(percentile(sorted, 90)),
          p99: round(percentile(sorted, 99)),
          max: round(sorted[sorted.length - 1] ?? 0),
        },
      ];
    }),
  );
  return {
    requests: loadRequests,
    seconds: Math.round(seconds * 10) / 10,
    perSecond: Math.round((loadRequests / seconds) * 10) / 10,
    latencyMs,
    statuses,
    documents: issued.size,
    lostDocuments,
    duplicateReferences,
    serverErrors: Object.entries(statuses)
      .filter(([label]) => Number(label.split(" ")[1]) >= 500)
      .reduce((n, [, count]) => n + count, 0),
    wrongPdfs,
    listTotal: { expected: expectedTotal, served },
    qrSecrets,
  };
}
