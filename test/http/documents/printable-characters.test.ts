import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { fallbackFontKey } from "../../../src/font-coverage/coverage";
import { createCredential } from "../../helpers/credentials";
import { documentsApi } from "../../helpers/documents-api";
import { failing } from "../../helpers/faults";
import { callWith, callWithClock, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);

/** A request whose shipper is named in Japanese: the CJK font prints it. */
function cjkRequest(reference = "CJK-1") {
  const body = fullRequest();
  body.reference = reference;
  body.shipper.name = "Cerámicas 株式会社";
  return body;
}

/** The FONTS bucket, counting the reads of each key. */
function countingFonts(): { bucket: R2Bucket; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const bucket = new Proxy(env.FONTS, {
    get(target, property) {
      if (property === "get") {
        return (key: string) => {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          return target.get(key);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { bucket, reads };
}

describe("characters a document cannot print", () => {
  it("answers 422 INVALID_FORMAT naming a private-use, unassigned or uncovered code point", async () => {
    const { key } = await createCredential();
    const body = fullRequest();
    body.shipper.name = "Talleres \u{E000} SL";
    // Phoenician, outside the Basic Multilingual Plane the last resort covers.
    body.goods.description = "Ánforas \u{10900}\u{10901}";
    body.observations = "Sin \u{0378} cambios";
    const response = await documentsApi(
      callWithClock(fixedClock(NOW)),
      key,
    ).create(body);

    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      errors: [
        {
          field: "shipper.name",
          code: "INVALID_FORMAT",
          message: "U+E000 cannot be printed.",
        },
        {
          field: "goods.description",
          code: "INVALID_FORMAT",
          message: "U+10900 cannot be printed.",
        },
        {
          field: "observations",
          code: "INVALID_FORMAT",
          message: "U+0378 cannot be printed.",
        },
      ],
    });
  });

  it("accepts them in metadata, which is not printed", async () => {
    const { key } = await createCredential();
    const body = fullRequest();
    body.metadata = { note: "\u{E000}\u{0378}" };

    expect(
      (await documentsApi(callWithClock(fixedClock(NOW)), key).create(body))
        .status,
    ).toBe(201);
  });
});

/** The PDF of a document issued with `body`, as Latin-1 text, where font names show. */
async function issuedPdf(
  body: ReturnType<typeof fullRequest>,
): Promise<string> {
  const { key } = await createCredential();
  const api = documentsApi(callWithClock(fixedClock(NOW)), key);
  const response = await api.create(body);
  expect(response.status).toBe(201);
  const { uuid } = (await response.json()) as { uuid: string };
  return new TextDecoder("latin1").decode(
    await (await api.pdf(uuid)).arrayBuffer(),
  );
}

describe("a document that needs a fallback font", () => {
  it("is issued with the CJK font loaded from the FONTS bucket", async () => {
    const { key } = await createCredential();
    const api = documentsApi(callWithClock(fixedClock(NOW)), key);
    const result = await api.issue(cjkRequest());
    const pdf = new TextDecoder("latin1").decode(
      await (await api.pdf(result.uuid)).arrayBuffer(),
    );

    expect(pdf).toContain("/NotoSansSC-Regular");
  });

  it("is issued in Devanagari, Thai, Armenian, Georgian and Ethiopic with the last-resort font", async () => {
    const body = fullRequest();
    body.shipper.name = "नमस्ते สวัสดี";
    body.carrier.name = "Բարեւ გამარჯობა";
    body.observations = "ሰላም";

    expect(await issuedPdf(body)).toContain("/DecaLastResort");
  });

  it("is issued with emoji sequences and numbers in right-to-left text, shaped inside the Worker", async () => {
    const body = fullRequest();
    body.observations = "👍🏽 🇪🇸 👨‍👩‍👧 1️⃣ مرحبا 123 שלום 2026";
    const pdf = await issuedPdf(body);

    expect(pdf).toContain("/NotoEmoji-Regular");
    expect(pdf).toContain("/NotoSansArabic-Regular");
  });

  it("fetches each font once for documents issued at the same time", async () => {
    const { key } = await createCredential();
    const { bucket, reads } = countingFonts();
    const api = documentsApi(
      callWith({ clock: fixedClock(NOW), bindings: { ...env, FONTS: bucket } }),
      key,
    );
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) => api.create(cjkRequest(`CJK-${i}`))),
    );

    expect(responses.map((response) => response.status)).toEqual([
      201, 201, 201, 201,
    ]);
    expect(Object.fromEntries(reads)).toEqual({
      [fallbackFontKey("cjk")]: 1,
    });
  });

  it("answers 503 and writes nothing when the font cannot be loaded", async () => {
    const { key } = await createCredential();
    const bindings = { ...env, FONTS: failing(env.FONTS, "get") };
    const api = documentsApi(
      callWith({ clock: fixedClock(NOW), bindings }),
      key,
    );
    const objectsBefore = (await env.PDFS.list()).objects.length;
    const response = await api.create(cjkRequest());

    expect(response.status).toBe(503);
    expect(
      ((await response.json()) as { errors: { code: string }[] }).errors[0]
        ?.code,
    ).toBe("SERVICE_UNAVAILABLE");
    expect((await env.PDFS.list()).objects.length).toBe(objectsBefore);
    const list = (await (await api.list()).json()) as {
      meta: { total: number };
    };
    expect(list.meta.total).toBe(0);

    // The failure is not remembered: the next try loads the font.
    const retry = documentsApi(callWith({ clock: fixedClock(NOW) }), key);
    expect((await retry.create(cjkRequest())).status).toBe(201);
  });
});
