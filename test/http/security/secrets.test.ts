import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { sha256Hex } from "../../../src/domain/sha256";
import { createCredential } from "../../helpers/credentials";
import { deletion, documentsApi, qrPath } from "../../helpers/documents-api";
import { capturedLog } from "../../helpers/log";
import { rowsOfAllShards, shards } from "../../helpers/shards";
import { webhookEndpointsApi } from "../../helpers/webhook-endpoints";
import { bearer, callWith, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 9, 30);

/** Every value of every row of every table, as text. */
async function everyStoredValue(): Promise<string[]> {
  const values: string[] = [];
  for (const shard of shards) {
    const tables = await shard
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      )
      .all<{ name: string }>();
    for (const { name } of tables.results) {
      const rows = await shard.prepare(`SELECT * FROM "${name}"`).all();
      for (const row of rows.results)
        values.push(...Object.values(row).map(String));
    }
  }
  return values;
}

describe("secrets at rest and in the log", () => {
  const logged = capturedLog();

  it("stores API keys only as their SHA-256, and QR secrets not at all", async () => {
    const { key, id } = await createCredential();
    const document = await documentsApi(
      callWith({ clock: fixedClock(NOW) }),
      key,
    ).issue(fullRequest());
    const k = new URL(document.url).searchParams.get("k") ?? "";
    expect(k.length).toBeGreaterThanOrEqual(22);

    const stored = await everyStoredValue();
    expect(stored.length).toBeGreaterThan(0);
    for (const value of stored) {
      expect(value).not.toContain(key);
      expect(value).not.toContain(key.slice(8, 30));
      expect(value).not.toContain(k);
    }
    const [credential] = await rowsOfAllShards(
      "SELECT key_hash, key_prefix, key_last_four FROM credentials WHERE id = ?",
      id,
    );
    expect(credential).toEqual({
      key_hash: await sha256Hex(key),
      key_prefix: "sk_test_",
      key_last_four: key.slice(-4),
    });
  });

  it("stores webhook signing secrets only sealed, and never logs them", async () => {
    const { key } = await createCredential();
    const endpoints = webhookEndpointsApi(
      callWith({ clock: fixedClock(NOW) }),
      key,
    );
    const created = await endpoints.register();
    const rotated = (await (await endpoints.rotate(created.id)).json()) as {
      secret: string;
    };
    const secrets = [created.secret, rotated.secret];
    // The key inside each secret, whole and in part.
    const parts = secrets.flatMap((secret) => [
      secret,
      secret.slice("whsec_".length),
      secret.slice(10, 40),
    ]);
    const stored = await everyStoredValue();
    for (const part of parts) {
      for (const value of stored) expect(value).not.toContain(part);
      for (const line of logged) expect(line).not.toContain(part);
    }
    expect(logged.length).toBeGreaterThan(0);
  });

  it("never logs a key, a QR secret or a QR URL, whatever the request and its outcome", async () => {
    const { key } = await createCredential();
    const api = documentsApi(callWith({ clock: fixedClock(NOW) }), key);
    const failing = documentsApi(
      callWith({
        clock: fixedClock(NOW),
        renderPdf: () => Promise.reject(new Error("renderer down")),
      }),
      key,
    );
    const request = callWith({ clock: fixedClock(NOW) });
    const document = await api.issue(fullRequest());
    const k = new URL(document.url).searchParams.get("k") ?? "";
    const responses = [
      await request(qrPath(document.url)),
      await request(`/d/${document.uuid}?k=${k}x`),
      await request(`/demo/d/${document.uuid}?k=${k}`),
      await request(`/api/v1/documents?k=${k}`, bearer(key)),
      await api.remove(document.uuid, deletion()),
      await failing.create({ ...fullRequest(), reference: null }),
      await request("/api/v1/documents", bearer(`${key}x`)),
      await request("/api/v1/documents", { headers: { Authorization: key } }),
    ];
    expect(responses.map((r) => r.status)).toEqual([
      200, 404, 404, 200, 409, 500, 401, 401,
    ]);
    expect(logged.length).toBeGreaterThanOrEqual(responses.length);
    for (const line of logged) {
      expect(line).not.toContain(key.slice(8));
      expect(line).not.toContain(k);
      expect(line).not.toContain(document.url);
      expect(line).not.toMatch(/[?&]k=/);
    }
  });
});
