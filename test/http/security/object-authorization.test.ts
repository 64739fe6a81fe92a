import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import type { Environment } from "../../../src/schemas/environment";
import { createCredential } from "../../helpers/credentials";
import {
  comparable,
  type DocumentResultBody,
  deletion,
  qrPath,
} from "../../helpers/documents-api";
import {
  bearer,
  callWithClock,
  fixedClock,
  HEAVY_TEST_MS,
  jsonRequest,
} from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);
const HOUR = 3_600_000;
const IP = "198.51.100.20";
const NEVER_UUID = "00000000-0000-4000-8000-000000000000";
const NEVER_REFERENCE = "NEVER-USED";

const request = callWithClock(fixedClock(NOW));

interface Owner {
  name: string;
  key: string;
  document: DocumentResultBody;
}

/** A credential and one document it issued, under a reference of its own. */
async function owner(
  name: string,
  environment: Environment,
  organizationId?: string,
): Promise<Owner> {
  const credential = await createCredential({
    environment,
    organizationId,
    ...(environment === "demo"
      ? { expiresAt: NOW + 24 * HOUR, requesterIp: IP }
      : {}),
  });
  const response = await request(
    "/api/v1/documents",
    jsonRequest(
      "POST",
      credential.key,
      { ...minimalRequest(), reference: `REF-${name}` },
      { "CF-Connecting-IP": IP },
    ),
  );
  expect(response.status).toBe(201);
  return {
    name,
    key: credential.key,
    document: (await response.json()) as DocumentResultBody,
  };
}

/** Every document operation at one address, as the caller sends it. */
const operations = (key: string, address: string) => {
  const path = `/api/v1/documents/${address}`;
  const headers = { "CF-Connecting-IP": IP };
  return {
    get: () => request(path, bearer(key, headers)),
    status: () => request(`${path}/status`, bearer(key, headers)),
    pdf: () => request(`${path}/pdf`, bearer(key, headers)),
    rectify: () =>
      request(path, jsonRequest("PUT", key, minimalRequest(), headers)),
    remove: () =>
      request(path, jsonRequest("DELETE", key, deletion(), headers)),
  };
};

describe("object-level authorization", () => {
  it(
    "answers another's document exactly as one that never existed, at every route and address",
    async () => {
      const caller = await owner("caller", "test");
      const others = [
        await owner("other-org", "test"),
        await owner("live", "live"),
        await owner("demo", "demo"),
      ];
      // A second caller, whose organization holds documents of another key
      // (same environment) and of its live environment.
      const callerOrg = await createCredential({ environment: "test" });
      others.push(await owner("org-sibling", "test", callerOrg.organizationId));
      others.push(await owner("org-live", "live", callerOrg.organizationId));
      const sibling = await owner(
        "org-caller",
        "test",
        callerOrg.organizationId,
      );

      for (const attacker of [caller, sibling]) {
        for (const target of [...others, caller]) {
          if (target === attacker) continue;
          const addresses: [string, string][] = [
            [target.document.uuid, NEVER_UUID],
            [`ref/REF-${target.name}`, `ref/${NEVER_REFERENCE}`],
          ];
          for (const [address, never] of addresses) {
            const foreign = operations(attacker.key, address);
            const absent = operations(attacker.key, never);
            for (const name of Object.keys(
              foreign,
            ) as (keyof typeof foreign)[]) {
              const [seen, expected] = [
                await comparable(await foreign[name]()),
                await comparable(await absent[name]()),
              ];
              expect(
                seen,
                `${attacker.name} ${name} ${target.name} at ${address}`,
              ).toEqual(expected);
              expect(seen.status).toBe(404);
            }
          }
        }
      }

      // Nothing was changed: every document is still active, latest and readable by its owner.
      for (const target of [caller, sibling, ...others]) {
        const own = operations(target.key, target.document.uuid);
        expect(await (await own.status()).json()).toEqual({ status: "active" });
        const read = (await (await own.get()).json()) as DocumentResultBody;
        expect(read).toEqual(target.document);
        const list = (await (
          await request(
            "/api/v1/documents",
            bearer(target.key, { "CF-Connecting-IP": IP }),
          )
        ).json()) as { meta: { total: number } };
        expect(list.meta.total).toBe(1);
      }
    },
    HEAVY_TEST_MS,
  );

  it("refuses a QR secret on any document but its own, like an unknown document", async () => {
    const first = await owner("qr-first", "test");
    const second = await owner("qr-second", "live");
    const demo = await owner("qr-demo", "demo");
    const secretOf = (document: DocumentResultBody) =>
      new URL(document.url).searchParams.get("k") ?? "";
    const expected = await comparable(
      await request(`/d/${NEVER_UUID}?k=${secretOf(first.document)}`),
    );
    expect(expected.status).toBe(404);
    const attempts = [
      `/d/${first.document.uuid}?k=${secretOf(second.document)}`,
      `/d/${second.document.uuid}?k=${secretOf(first.document)}`,
      `/d/${first.document.uuid}?k=${secretOf(demo.document)}`,
      `/d/${demo.document.uuid}?k=${secretOf(demo.document)}`,
      `/demo/d/${first.document.uuid}?k=${secretOf(first.document)}`,
      `/d/${first.document.uuid}`,
      `/d/${first.document.uuid}?k=`,
    ];
    for (const path of attempts) {
      expect(await comparable(await request(path)), path).toEqual(expected);
    }
    // Each link still serves its own PDF.
    for (const { document } of [first, second, demo]) {
      expect((await request(qrPath(document.url))).status).toBe(200);
    }
  });
});
