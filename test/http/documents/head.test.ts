import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { createCredential } from "../../helpers/credentials";
import { comparable, documentsApi, qrPath } from "../../helpers/documents-api";
import { shardOf } from "../../helpers/shards";
import {
  bearer,
  callWithClock,
  fixedClock,
  fromIp,
} from "../../helpers/worker";

// HEAD on a PDF answers the headers a GET would and records nothing
// (docs/api.md, Reading and status): not a download, not a QR access, so deletion stays allowed.

const NOW = Date.UTC(2026, 10, 21, 7);
const DAY = 24 * 3_600_000;
const IP = "192.0.2.91";

async function auditOf(uuid: string): Promise<unknown[]> {
  const { results } = await shardOf(uuid)
    .prepare(
      "SELECT type FROM audit_events WHERE document_uuid = ? ORDER BY id",
    )
    .bind(uuid)
    .all<{ type: string }>();
  return results.map((row) => row.type);
}

/** A document issued by a fresh credential of `environment`. */
async function issued(environment: "test" | "demo") {
  const request = fromIp(callWithClock(fixedClock(NOW)), IP);
  const { key } = await createCredential(
    environment === "demo"
      ? { environment, expiresAt: NOW + DAY, requesterIp: IP }
      : { environment },
  );
  const api = documentsApi(request, key);
  const document = await api.issue({ ...minimalRequest(), reference: "H-1" });
  return { request, key, api, document };
}

/** The HEAD answer, checked to be the GET's without a body or request id. */
async function expectHeadOfGet(head: Response, get: Response) {
  expect(await head.text()).toBe("");
  const { body: _, ...headOnly } = await comparable(head);
  const { body, ...getOnly } = await comparable(get);
  expect(body.length).toBeGreaterThan(0);
  expect(headOnly).toEqual(getOnly);
  expect(head.headers.get("Content-Type")).toBe("application/pdf");
}

describe("HEAD on a PDF", () => {
  it("answers the authenticated download's headers and records no download", async () => {
    const { request, key, document } = await issued("test");
    for (const address of [document.uuid, `ref/${document.reference}`]) {
      const path = `/api/v1/documents/${address}/pdf`;
      const before = await auditOf(document.uuid);
      const head = await request(path, { ...bearer(key), method: "HEAD" });
      expect(head.status).toBe(200);
      expect(await auditOf(document.uuid)).toEqual(before);
      await expectHeadOfGet(head, await request(path, bearer(key)));
    }
    expect(await auditOf(document.uuid)).toEqual([
      "issued",
      "pdf_downloaded",
      "pdf_downloaded",
    ]);
  });

  it.each(["test", "demo"] as const)(
    "answers a %s QR link's headers and records no access: the document can still be deleted",
    async (environment) => {
      const { request, api, document } = await issued(environment);
      const head = await request(qrPath(document.url), { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(await auditOf(document.uuid)).toEqual(["issued"]);
      expect((await api.remove(document.uuid)).status).toBe(204);
    },
  );

  it("answers a QR link's HEAD like its GET", async () => {
    const { request, document } = await issued("test");
    const path = qrPath(document.url);
    await expectHeadOfGet(
      await request(path, { method: "HEAD" }),
      await request(path),
    );
  });
});
