import { describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import {
  comparable,
  documentsApi,
  withIssuedDocument,
} from "../../helpers/documents-api";
import { expectContractError } from "../../helpers/error-contract";
import {
  pngModules,
  quietZone,
  readQrTexts,
  svgModules,
} from "../../helpers/qr-images";
import { fromIp, ORIGIN } from "../../helpers/worker";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 21, 8);
const NEVER_ISSUED = "00000000-0000-4000-8000-000000000000";
const REQUEST_ID = /^req_[0-9A-Za-z]{24}$/;

const setup = () => withIssuedDocument(NOW);

/**
 * The body of a 200 QR image after checking its headers: the media type of
 * `format`, no caching, the request id, an inline file named after the
 * document, and the body's exact length.
 */
async function imageBody(
  response: Response,
  uuid: string,
  format: "svg" | "png",
): Promise<Uint8Array> {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe(
    format === "svg" ? "image/svg+xml" : "image/png",
  );
  expect(response.headers.get("Cache-Control")).toBe("no-store, private");
  expect(response.headers.get("X-Request-Id")).toMatch(REQUEST_ID);
  expect(response.headers.get("Content-Disposition")).toBe(
    `inline; filename="documento-control-${uuid}-qr.${format}"`,
  );
  const body = new Uint8Array(await response.arrayBuffer());
  expect(response.headers.get("Content-Length")).toBe(String(body.byteLength));
  return body;
}

const svgOf = async (response: Response, uuid: string) =>
  new TextDecoder().decode(await imageBody(response, uuid, "svg"));

describe("GET /api/v1/documents/{uuid}/qr and /ref/{reference}/qr", () => {
  it("answers an SVG of the document's url by default, at both addresses", async () => {
    const { api, document } = await setup();
    for (const address of [document.uuid, `ref/${document.reference}`]) {
      const svg = await svgOf(await api.qr(address), document.uuid);
      const grid = svgModules(svg);
      expect(quietZone(grid)).toBeGreaterThanOrEqual(4);
      expect(await readQrTexts(grid)).toEqual([document.url]);
      expect(
        await svgOf(await api.qr(address, "?format=svg"), document.uuid),
      ).toBe(svg);
    }
  });

  it("answers a PNG of at least 600 px with ?format=png, crisp and with its quiet zone", async () => {
    const { api, document } = await setup();
    for (const address of [document.uuid, `ref/${document.reference}`]) {
      const png = await imageBody(
        await api.qr(address, "?format=png"),
        document.uuid,
        "png",
      );
      const { side, pixelsPerModule, grid } = pngModules(png);
      expect(side).toBeGreaterThanOrEqual(600);
      expect(pixelsPerModule).toBeGreaterThanOrEqual(1);
      expect(quietZone(grid)).toBeGreaterThanOrEqual(4);
      expect(await readQrTexts(png)).toEqual([document.url]);
      // The same symbol as the SVG, module for module.
      expect(grid).toEqual(
        svgModules(await svgOf(await api.qr(address), document.uuid)),
      );
    }
  });

  it("encodes a demo document's /demo/d/ link for its demo token", async () => {
    const { request } = await setup();
    const ip = "198.51.100.77";
    const tokenResponse = await request("/api/v1/demo/tokens", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
      body: "{}",
    });
    const { token } = (await tokenResponse.json()) as { token: string };
    const demo = documentsApi(fromIp(request, ip), token);
    const document = await demo.issue(minimalRequest());
    expect(
      document.url.startsWith(`${ORIGIN}/demo/d/${document.uuid}?k=`),
    ).toBe(true);
    const svg = await svgOf(await demo.qr(document.uuid), document.uuid);
    expect(await readQrTexts(svgModules(svg))).toEqual([document.url]);
    const png = await imageBody(
      await demo.qr(document.uuid, "?format=png"),
      document.uuid,
      "png",
    );
    expect(await readQrTexts(png)).toEqual([document.url]);
  });

  it("answers exactly the 404 of the PDF download for unknown, foreign, deleted and old documents", async () => {
    const { clock, request, api, document, owner } = await setup();
    const reference = await comparable(await api.pdf(NEVER_ISSUED));
    expect(reference.status).toBe(404);
    const expectSame404 = async (address: string, client = api) => {
      for (const query of ["", "?format=png"]) {
        expect(await comparable(await client.qr(address, query))).toEqual(
          reference,
        );
      }
      expect(await comparable(await client.pdf(address))).toEqual(reference);
    };

    await expectSame404(NEVER_ISSUED);
    await expectSame404("not-a-uuid");
    await expectSame404("ref/not_a_reference");
    await expectSame404("ref/UNUSED-REF");
    const colleague = await createCredential({
      organizationId: owner.organizationId,
    });
    const live = await createCredential({
      organizationId: owner.organizationId,
      environment: "live",
    });
    for (const other of [colleague, live, await createCredential()]) {
      const foreign = documentsApi(request, other.key);
      await expectSame404(document.uuid, foreign);
      await expectSame404(`ref/${document.reference}`, foreign);
    }

    const deleted = await api.issue({
      ...fullRequest(),
      reference: "QR-DELETED",
    });
    expect((await api.remove(deleted.uuid)).status).toBe(204);
    await expectSame404(deleted.uuid);
    await expectSame404("ref/QR-DELETED");

    clock.set(NOW + 24 * HOUR - 1);
    expect((await api.qr(document.uuid)).status).toBe(200);
    clock.set(NOW + 24 * HOUR);
    await expectSame404(document.uuid);
    await expectSame404(`ref/${document.reference}`);
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const { api, document } = await setup();
    const headersOf = (response: Response) =>
      [...response.headers].filter(([name]) => name !== "x-request-id");
    for (const query of ["", "?format=png"]) {
      const get = await api.qr(document.uuid, query);
      const head = await api.qr(document.uuid, query, "HEAD");
      expect(head.status).toBe(200);
      expect(headersOf(head)).toEqual(headersOf(get));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      expect((await get.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it("refuses an unknown format with 422 INVALID_VALUE on `format`, before looking for the document", async () => {
    const { api, document } = await setup();
    for (const [address, query] of [
      [document.uuid, "?format=jpeg"],
      [document.uuid, "?format=PNG"],
      [`ref/${document.reference}`, "?format="],
      [NEVER_ISSUED, "?format=gif"],
    ] as const) {
      const response = await api.qr(address, query);
      expect(response.status).toBe(422);
      expect(JSON.parse(await expectContractError(response))).toEqual({
        errors: [
          {
            field: "format",
            code: "INVALID_VALUE",
            message: "Must be `svg` or `png`.",
          },
        ],
      });
    }
  });

  it("asks for the Bearer key like the PDF download", async () => {
    const { request, document } = await setup();
    const response = await request(`/api/v1/documents/${document.uuid}/qr`);
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toBe("Bearer");
    await expectContractError(response);
  });
});
