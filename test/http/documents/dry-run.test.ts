import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import {
  fullRequest,
  groupedRequest,
  minimalRequest,
  type RequestBody,
} from "../../../fixtures/requests";
import { STAND_IN_SEAL_FACTS } from "../../../fixtures/seal";
import { MAX_PDF_BYTES } from "../../../src/domain/documents/pdf-size";
import type {
  DocumentPdfInput,
  RenderPdf,
} from "../../../src/domain/documents/render-port";
import { renderDocumentPdf } from "../../../src/pdf/render-document";
import { createCredential } from "../../helpers/credentials";
import { demoDocumentsApi, documentsApi } from "../../helpers/documents-api";
import { shards } from "../../helpers/shards";
import {
  bearer,
  callWith,
  callWithClock,
  fixedClock,
  HEAVY_TEST_MS,
} from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const MINUTE = 60_000;
const VALIDATE = "/api/v1/documents/validate";

interface DryRun {
  data: RequestBody;
  pdf: { pages: number; size_bytes: number };
}

/** Every row of every table of every shard, and every key of every bucket. */
async function everything(): Promise<string[]> {
  const rows = await Promise.all(
    shards.map(async (shard, index) => {
      const { results: tables } = await shard
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
        )
        .all<{ name: string }>();
      const contents = await Promise.all(
        tables.map(async ({ name }) =>
          (await shard.prepare(`SELECT * FROM "${name}"`).all()).results.map(
            (row) => `DB_${index} ${name} ${JSON.stringify(row)}`,
          ),
        ),
      );
      return contents.flat();
    }),
  );
  const keys = await Promise.all(
    [env.PDFS, env.FONTS].map(async (bucket, index) => {
      const listed: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ cursor });
        listed.push(
          ...page.objects.map((o) => `R2_${index} ${o.key} ${o.etag}`),
        );
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return listed;
    }),
  );
  return [...rows.flat(), ...keys.flat()].sort();
}

/** The app, with a renderer that keeps what it was asked to render and what it made. */
function recordingRenders() {
  const renders: { input: DocumentPdfInput; pages: number; size: number }[] =
    [];
  const renderPdf: RenderPdf = async (input) => {
    const pdf = await renderDocumentPdf(input);
    renders.push({ input, pages: pdf.pages, size: pdf.bytes.byteLength });
    return pdf;
  };
  return { renders, request: callWith({ clock: fixedClock(NOW), renderPdf }) };
}

/** What a render was asked, without what only an issued version has. */
const asked = (render?: { input: DocumentPdfInput }) => {
  const { uuid, qrUrl, seal, ...rest } =
    render?.input ?? ({} as DocumentPdfInput);
  // The same seal: its signing function is made anew for each render.
  return { ...rest, seal: { name: seal?.name, maxBytes: seal?.maxBytes } };
};

describe("POST /api/v1/documents/validate", () => {
  it.each([
    ["a single shipment", fullRequest()],
    ["grouped shipments", groupedRequest(3)],
  ])(
    "answers 200 with the data and PDF a create of %s would have",
    async (_, body) => {
      const { key } = await createCredential();
      const { renders, request } = recordingRenders();
      const api = documentsApi(request, key);
      const response = await api.validate(body);
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("no-store, private");
      const dryRun = (await response.json()) as DryRun;
      expect(Object.keys(dryRun)).toEqual(["data", "pdf"]);
      const issued = await api.issue(body);
      expect(dryRun.data).toEqual(issued.data);
      const [rendered, issuedRender] = renders;
      expect(dryRun.pdf).toEqual({
        pages: rendered?.pages,
        size_bytes: rendered?.size,
      });
      expect(dryRun.pdf.pages).toBe(issued.pdf.pages);
      // The document the create rendered, but for its own uuid and QR link.
      expect(asked(rendered)).toEqual(asked(issuedRender));
    },
  );

  it("asks no time-stamping authority, and answers the size of a create with one, the token's room included", async () => {
    const { key } = await createCredential();
    const authority = vi
      .spyOn(globalThis, "fetch")
      .mockResolvedValue(new Response(null, { status: 503 }));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const api = documentsApi(
        callWith({
          clock: fixedClock(NOW),
          bindings: { ...env, SEAL_TIMESTAMP_URL: "https://tsa.example/" },
        }),
        key,
      );
      const dryRun = (await (
        await api.validate(fullRequest())
      ).json()) as DryRun;
      expect(authority).not.toHaveBeenCalled();
      const issued = await api.issue(fullRequest());
      expect(authority).toHaveBeenCalledOnce();
      // Its uuid and QR link differ, so its compressed streams may by a few
      // bytes; without the token's room it would be 16 KB smaller.
      expect(
        Math.abs(dryRun.pdf.size_bytes - issued.pdf.size_bytes),
      ).toBeLessThan(1024);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("answers a reference already used with 200, as a check of the body only", async () => {
    const { key } = await createCredential();
    const api = documentsApi(callWithClock(fixedClock(NOW)), key);
    await api.issue(fullRequest());
    const changed = fullRequest();
    changed.goods.weight_kg = "1";
    expect((await api.create(changed)).status).toBe(409);
    expect((await api.validate(changed)).status).toBe(200);
  });

  it("answers exactly the error a create would answer", async () => {
    const { key } = await createCredential();
    const request = callWithClock(fixedClock(NOW));
    const api = documentsApi(request, key);
    const grouped = groupedRequest(5);
    grouped.shipments[3].goods.weight_kg = "-1";
    const both = { ...groupedRequest(2), origin: minimalRequest().origin };
    const { origin, destination, goods, ...neither } = minimalRequest();
    const unprintable = fullRequest();
    unprintable.goods.description = "Ánforas \u{10900}";
    const tooBig = fullRequest();
    tooBig.metadata = { pad: "x".repeat(200_000) };
    for (const body of [grouped, both, neither, unprintable, tooBig]) {
      const expected = await api.create(body);
      const answered = await api.validate(body);
      expect(answered.status).toBe(expected.status);
      expect(await answered.json()).toEqual(await expected.json());
    }
    const raw = async (path: string, init: RequestInit) => {
      const response = await request(path, init);
      return { status: response.status, body: await response.json() };
    };
    for (const init of [
      bearer(key, { "Content-Type": "application/json" }),
      { ...bearer(key, { "Content-Type": "text/plain" }), body: "{}" },
      { ...bearer(key, { "Content-Type": "application/json" }), body: "{" },
      { headers: { "Content-Type": "application/json" }, body: "{}" },
    ]) {
      const post = { ...init, method: "POST" };
      expect(await raw(VALIDATE, post)).toEqual(
        await raw("/api/v1/documents", post),
      );
    }
  });

  it("answers DOCUMENT_TOO_LARGE from the PDF it renders, as a create does", async () => {
    const { key } = await createCredential();
    const api = documentsApi(
      callWith({
        clock: fixedClock(NOW),
        renderPdf: async () => ({
          bytes: new Uint8Array(MAX_PDF_BYTES + 1),
          pages: 1,
          seal: STAND_IN_SEAL_FACTS,
        }),
      }),
      key,
    );
    const response = await api.validate(fullRequest());
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      errors: [
        {
          field: null,
          code: "DOCUMENT_TOO_LARGE",
          message: expect.any(String),
        },
      ],
    });
  });

  it(
    "writes nothing: every table of every shard and every bucket stay as they were",
    async () => {
      const { key } = await createCredential();
      const request = callWithClock(fixedClock(NOW));
      const api = documentsApi(request, key);
      const issued = await api.issue(fullRequest());
      const ip = "203.0.113.91";
      const demo = await demoDocumentsApi(request, ip);
      const invalid = fullRequest();
      invalid.goods.weight_kg = "heavy";
      const before = await everything();
      expect(before.join("\n")).toContain(issued.uuid);

      for (const body of [
        fullRequest(),
        minimalRequest(),
        groupedRequest(100),
        { ...minimalRequest(), reference: "NUEVA-1" },
        { ...fullRequest(), reference: issued.reference },
      ]) {
        expect((await api.validate(body)).status).toBe(200);
      }
      expect((await api.validate(invalid)).status).toBe(422);
      expect((await demo.validate(groupedRequest(4))).status).toBe(200);
      expect((await demo.validate(invalid)).status).toBe(422);

      expect(await everything()).toEqual(before);
    },
    HEAVY_TEST_MS,
  );

  it("renders a demo token's PDF as a demo one, with its marks", async () => {
    const { renders, request } = recordingRenders();
    const demo = await demoDocumentsApi(request, "203.0.113.92");
    const response = await demo.validate(minimalRequest());
    const dryRun = (await response.json()) as DryRun;
    const issued = await demo.issue(minimalRequest());
    expect(renders.map(({ input }) => input.environment)).toEqual([
      "demo",
      "demo",
    ]);
    expect(dryRun.pdf).toEqual({
      pages: issued.pdf.pages,
      size_bytes: renders[0]?.size,
    });
  });

  it("counts against a demo IP's limits like a create, but not toward the token's ten documents", async () => {
    const clock = fixedClock(NOW);
    const request = callWithClock(clock);
    const ip = "203.0.113.93";
    const demo = await demoDocumentsApi(request, ip);
    for (let i = 0; i < 5; i++) {
      expect((await demo.validate(minimalRequest())).status).toBe(200);
    }
    const limited = await demo.validate(minimalRequest());
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("60");
    expect(await limited.json()).toMatchObject({
      errors: [{ code: "DEMO_RATE_LIMITED" }],
    });
    expect((await demo.create(minimalRequest())).status).toBe(429);
    // Eleven dry runs, and the token still issues: none was one of its ten.
    for (let i = 0; i < 6; i++) {
      clock.advance(2 * MINUTE);
      expect((await demo.validate(minimalRequest())).status).toBe(200);
    }
    clock.advance(2 * MINUTE);
    expect((await demo.create(minimalRequest())).status).toBe(201);
  });

  it("counts against a key's rate limit like any request", async () => {
    const { key } = await createCredential({ rateLimitPerMinute: 2 });
    const api = documentsApi(callWithClock(fixedClock(NOW)), key);
    expect((await api.validate(minimalRequest())).status).toBe(200);
    expect((await api.validate(minimalRequest())).status).toBe(200);
    const limited = await api.validate(minimalRequest());
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({
      errors: [{ code: "RATE_LIMITED" }],
    });
  });
});
