import {
  createExecutionContext,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  PERFORMANCE_DOC,
  ROUND_TRIP_TABLE,
  withBlock,
} from "../../bench/performance-doc";
import { fullRequest } from "../../fixtures/requests";
import { createApiApp } from "../../src/api-app";
import { renderDocumentPdf } from "../../src/pdf/render-document";
import { checkedAgainstContract } from "../helpers/contract";
import { CallLedger, countingBindings } from "../helpers/counting-bindings";
import { createCredential } from "../helpers/credentials";
import { deletion, qrPath } from "../helpers/documents-api";
import { bearer, fixedClock, jsonRequest, ORIGIN } from "../helpers/worker";
import {
  type RoundTrips,
  roundTrips,
  roundTripTable,
  withinBudget,
} from "./round-trip-table";

/** The budgets: sequential calls, authentication included. */
const BUDGETS: Record<string, number> = {
  "Create with a reference": 5,
  // The seal's timestamp: the authority's answer before the PDF is stored.
  "Create with a time-stamping authority": 6,
  "Identical retry": 3,
  Correct: 6,
  Delete: 4,
  Get: 3,
  Status: 3,
  "Authenticated PDF": 3,
  // The document's read, then the export in memory: no call of its own.
  "eFTI datasets": 3,
  "eFTI consignment": 3,
  List: 3,
  // Its count needs the credential the read returns, and the list waits for
  // the count's verdict (docs/performance.md).
  "List, the key's first request in this isolate": 3,
  "QR within the deletion window, first scan": 2,
  "QR within the deletion window, scan within a minute of the last access written": 1,
  "QR within the deletion window, later scan": 1,
  "QR after the deletion window": 1,
  "QR on an edge cache hit": 0,
  "Demo token": 2,
  "Demo create": 5,
  "Demo list": 2,
};

const HOUR_MS = 60 * 60 * 1000;
const CALLER_IP = "192.0.2.10";
const DEMO_IP = "192.0.2.20";

const ledger = new CallLedger();
const bindings = countingBindings(env, ledger);
const clock = fixedClock(Date.now());
const app = createApiApp({ clock, renderPdf: renderDocumentPdf });

/** One request to the app on the counting bindings, and its calls. */
async function measured(
  path: string,
  init: RequestInit = {},
  on: typeof bindings = bindings,
) {
  const request = new Request(`${ORIGIN}${path}`, {
    ...init,
    headers: {
      "CF-Connecting-IP": CALLER_IP,
      ...(init.headers as Record<string, string>),
    },
  });
  const context = createExecutionContext();
  const { answer, calls } = await ledger.measureRequest(
    async () => app.fetch(request, on, context),
    () => waitOnExecutionContext(context),
  );
  return { response: await checkedAgainstContract(request, answer), calls };
}

const rows: RoundTrips[] = [];

/** Measures `path` as `operation`, expecting `status`; its JSON body if any. */
async function operation(
  name: string,
  expected: number,
  path: string,
  init?: RequestInit,
  on?: typeof bindings,
): Promise<Record<string, unknown>> {
  const { response, calls } = await measured(path, init, on);
  const body = new TextDecoder().decode(await response.arrayBuffer());
  if (response.status !== expected) {
    throw new Error(`${name}: ${response.status} ${body}`);
  }
  rows.push(roundTrips(name, calls, BUDGETS[name]));
  return response.headers.get("Content-Type")?.includes("json")
    ? JSON.parse(body)
    : {};
}

describe("round trips of every operation", () => {
  beforeAll(async () => {
    const { key } = await createCredential();
    const post = (body: unknown) => jsonRequest("POST", key, body);
    const withReference = { ...fullRequest(), reference: "RT-1" };
    const withoutReference = { ...fullRequest(), reference: null };
    // The caller has been here before: its first request warmed the isolate.
    await operation("warm-up", 201, "/api/v1/documents", post(fullRequest()));
    const toDelete = await operation(
      "warm-up",
      201,
      "/api/v1/documents",
      post({ ...fullRequest(), reference: "RT-DELETE" }),
    );
    rows.splice(0);

    const created = await operation(
      "Create with a reference",
      201,
      "/api/v1/documents",
      post(withReference),
    );
    await operation(
      "Identical retry",
      200,
      "/api/v1/documents",
      post(withReference),
    );
    const unreferenced = await operation(
      "Create without a reference",
      201,
      "/api/v1/documents",
      post(withoutReference),
    );
    const corrected = await operation(
      "Correct",
      200,
      `/api/v1/documents/${created.uuid}`,
      jsonRequest("PUT", key, { ...withReference, reference: "RT-1-B" }),
    );
    await operation(
      "Delete",
      204,
      `/api/v1/documents/${toDelete.uuid}`,
      jsonRequest("DELETE", key, deletion()),
    );
    const document = `/api/v1/documents/${corrected.uuid}`;
    await operation("Get", 200, document, bearer(key));
    await operation("Status", 200, `${document}/status`, bearer(key));
    await operation("Authenticated PDF", 200, `${document}/pdf`, bearer(key));
    const { data: datasets } = (await operation(
      "eFTI datasets",
      200,
      `${document}/efti`,
      bearer(key),
    )) as { data: { dataset_id: string }[] };
    await operation(
      "eFTI consignment",
      200,
      `${document}/efti/${datasets[0]?.dataset_id}`,
      bearer(key),
    );
    await operation("List", 200, "/api/v1/documents", bearer(key));
    const newcomer = await createCredential();
    await operation(
      "List, the key's first request in this isolate",
      200,
      "/api/v1/documents",
      bearer(newcomer.key),
    );
    const link = qrPath(String(unreferenced.url));
    await operation("QR within the deletion window, first scan", 200, link);
    await operation(
      "QR within the deletion window, scan within a minute of the last access written",
      200,
      link,
    );
    clock.advance(60_000);
    await operation("QR within the deletion window, later scan", 200, link);
    clock.advance(4 * HOUR_MS);
    await operation("QR after the deletion window", 200, link);
    await operation("QR on an edge cache hit", 200, link);

    const demoHeaders = {
      "Content-Type": "application/json",
      "CF-Connecting-IP": DEMO_IP,
    };
    const { token } = await operation(
      "Demo token",
      201,
      "/api/v1/demo/tokens",
      {
        method: "POST",
        headers: demoHeaders,
        body: "{}",
      },
    );
    await operation("Demo create", 201, "/api/v1/documents", {
      method: "POST",
      headers: { ...demoHeaders, Authorization: `Bearer ${token}` },
      body: JSON.stringify(fullRequest()),
    });
    await operation("Demo list", 200, "/api/v1/documents", {
      headers: { ...demoHeaders, Authorization: `Bearer ${token}` },
    });
    // The authority's call counted as a round trip; its refusal (503) leaves
    // the document B-B, which costs the same calls.
    const authority = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation(() =>
        ledger.track(
          "TSA POST",
          async () => new Response(null, { status: 503 }),
        ),
      );
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await operation(
      "Create with a time-stamping authority",
      201,
      "/api/v1/documents",
      post({ ...withReference, reference: "RT-TSA" }),
      { ...bindings, SEAL_TIMESTAMP_URL: "https://tsa.example/" },
    );
    expect(authority).toHaveBeenCalledOnce();
    vi.restoreAllMocks();
    // Last: the first document of the isolate that needs this font.
    await operation(
      "Create needing a fallback font not yet loaded",
      201,
      "/api/v1/documents",
      post({ ...withoutReference, observations: "Entregar a שלום, puerta 7." }),
    );
  });

  for (const [name, budget] of Object.entries(BUDGETS)) {
    it(`${name}: at most ${budget} sequential calls`, () => {
      const row = rows.find((measured) => measured.operation === name);
      expect(row).toBeDefined();
      expect(row && withinBudget(row), JSON.stringify(row)).toBe(true);
    });
  }

  it(`are the table of ${PERFORMANCE_DOC}`, ({ task }) => {
    const table = roundTripTable(rows);
    // Handed over to `npm run roundtrips:table`, which rewrites the file in
    // Node: a test only compares.
    task.meta.roundTripTable = table;
    const text = env.PERFORMANCE_DOC_TEXT;
    expect(
      text,
      `The round-trip table of ${PERFORMANCE_DOC} differs from the one measured: npm run roundtrips:table rewrites it`,
    ).toBe(withBlock(text, ROUND_TRIP_TABLE, table));
  });
});
