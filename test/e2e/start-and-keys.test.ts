import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fullRequest, minimalRequest } from "../../fixtures/requests";
import {
  apiClient,
  freePort,
  keys,
  keysAt,
  keysAtWith,
  type RunningService,
  refusedStart,
  startService,
} from "../../scripts/lib/commands";
import { readDevVars } from "../../scripts/lib/dev-vars";
import { pageTexts, squeezeSpaces } from "../pdf/pdf-tools";

// One local service, as a new user starts it, on its own state folder.
let stateDir: string;
let port: number;
let service: RunningService;

const api = (
  path: string,
  key?: string,
  headers: Record<string, string> = {},
) =>
  fetch(`http://localhost:${port}${path}`, {
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers },
  });

function printedKey(output: string): string {
  const match = /sk_test_[0-9A-Za-z]{32,}/.exec(output);
  if (!match) throw new Error(`no key printed:\n${output}`);
  return match[0];
}

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "deca-e2e-"));
  service = await startService(stateDir);
  port = service.port;
});

afterAll(async () => {
  await service?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

describe("npm start", () => {
  it("serves the API on PORT with the development key it prints", async () => {
    const key = printedKey(service.output());
    const response = await api("/api/v1/documents", key);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store, private");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.text()).toBe(
      '{"data":[],"meta":{"current_page":1,"limit":25,"total":0,"last_page":1}}',
    );
  });

  it("serves every path on one origin from the two Workers: QR links and pages from the edge Worker, the API from the API Worker", async () => {
    const key = printedKey(service.output());
    const created = await apiClient(port, key)("/api/v1/documents", {
      method: "POST",
      body: JSON.stringify(minimalRequest()),
    });
    expect(created.status).toBe(201);
    const { url } = (await created.json()) as { url: string };
    const { pathname, search } = new URL(url);
    const answers = {
      "deca-service": [created, await api("/api/v1/openapi.json")],
      "deca-edge": [
        await api(`${pathname}${search}`),
        await api("/"),
        await api("/docs"),
      ],
    };
    for (const [worker, responses] of Object.entries(answers)) {
      for (const response of responses) {
        expect(response.status, response.url).toBe(
          response === created ? 201 : 200,
        );
        // Each Worker logs the requests it answered, under its name.
        const id = response.headers.get("x-request-id");
        await expect
          .poll(service.output, { timeout: 10_000 })
          .toContain(`[${worker}] {"request_id":"${id}"`);
      }
    }
    const pdf = answers["deca-edge"][0];
    expect(pdf?.headers.get("content-type")).toBe("application/pdf");
  });

  it("explains each warning wrangler prints on a fresh state", () => {
    const output = service.output();
    const warnings = [
      [
        /types might be out of date/,
        /"types might be out of date" below is about the edge Worker/,
      ],
      [
        /Scheduled Workers are not automatically triggered/,
        /the API Worker's cron \(\*\/5 \* \* \* \*\) runs here every 5 minutes through POST \/ops\/v1\/scheduled-work/,
      ],
    ] as const;
    for (const [warning, explanation] of warnings) {
      if (warning.test(output)) expect(output).toMatch(explanation);
    }
    // The cron runs whether or not wrangler warns that it does not.
    expect(output).toMatch(warnings[1][1]);
    // No other warning. (Whether the fonts were put is the next start's
    // test: a start retried on another port finds them already there.)
    expect(output.match(/WARNING/g) ?? []).toHaveLength(1);
  });

  it("answers 401 without a key and with a bad one", async () => {
    expect((await api("/api/v1/documents")).status).toBe(401);
    const bad = await api("/api/v1/documents", `sk_test_${"Z".repeat(40)}`);
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({
      errors: [{ code: "UNAUTHENTICATED" }],
    });
  });
});

describe("a correction issued through npm start", () => {
  it("serves a PDF that names the corrected version and prints each change as old → new", async () => {
    const request = apiClient(port, printedKey(service.output()));
    const created = await request("/api/v1/documents", {
      method: "POST",
      body: JSON.stringify(fullRequest()),
    });
    expect(created.status).toBe(201);
    const original = (await created.json()) as { uuid: string };
    const body = fullRequest();
    body.reference = "PED-2026-0001-B";
    body.goods.weight_kg = "13000";
    body.vehicle.registration = "5678 dfg";
    const corrected = await request(`/api/v1/documents/${original.uuid}`, {
      method: "PUT",
      body: JSON.stringify(body),
    });
    expect(corrected.status).toBe(200);
    const correction = (await corrected.json()) as { uuid: string };
    const pdf = await request(`/api/v1/documents/${correction.uuid}/pdf`);
    expect(pdf.status).toBe(200);
    const [first = ""] = await pageTexts(
      new Uint8Array(await pdf.arrayBuffer()),
    );
    const text = squeezeSpaces(first);
    expect(text).toContain(
      `Rectifica el documento PED-2026-0001 (${original.uuid})`,
    );
    expect(text).toContain(
      "• Matrícula del vehículo: 1234BCD (ES) → 5678DFG (ES) • Peso: 12.345,678 kg → 13.000 kg",
    );
  });
});

describe("npm start with a malformed configuration", () => {
  it.each([
    ["DEMO_TOKENS_PER_MINUTE", "ten"],
    ["MAX_BODY_BYTES", "-1"],
    ["BASE_URL", "deca.example"],
  ])("refuses to start when %s=%j, naming it", async (name, value) => {
    const result = await refusedStart(await freePort(), stateDir, {
      [name]: value,
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(`npm start: Invalid configuration: ${name} must be`),
    );
    expect(result.stdout).not.toMatch(/Development API key|Ready on/);
  });
});

describe("npm run keys", () => {
  it("create prints one JSON line whose key works at once", async () => {
    const result = await keys(
      stateDir,
      "create",
      "--org",
      "Transportes Ñandú",
      "--env",
      "live",
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    const issued = JSON.parse(lines[0] as string);
    expect(Object.keys(issued).sort()).toEqual([
      "credential_id",
      "key",
      "organization_id",
    ]);
    expect(issued.key).toMatch(/^sk_live_[0-9A-Za-z]{32,}$/);
    expect((await api("/api/v1/documents", issued.key)).status).toBe(200);
  });

  it("revoke takes effect on the next request", async () => {
    const issued = JSON.parse(
      (await keys(stateDir, "create", "--org", "Revoked SL", "--env", "test"))
        .stdout,
    );
    expect((await api("/api/v1/documents", issued.key)).status).toBe(200);
    const revoked = await keys(stateDir, "revoke", issued.credential_id);
    expect(revoked.code).toBe(0);
    expect((await api("/api/v1/documents", issued.key)).status).toBe(401);
  });

  it("binds a key to its allowed IPs", async () => {
    const issued = JSON.parse(
      (
        await keys(
          stateDir,
          "create",
          "--org",
          "Allow SL",
          "--env",
          "test",
          "--allow-ip",
          "203.0.113.7",
        )
      ).stdout,
    );
    const outside = await api("/api/v1/documents", issued.key, {
      "CF-Connecting-IP": "203.0.113.9",
    });
    expect(outside.status).toBe(403);
    expect(await outside.json()).toMatchObject({
      errors: [{ code: "IP_NOT_ALLOWED" }],
    });
    const inside = await api("/api/v1/documents", issued.key, {
      "CF-Connecting-IP": "203.0.113.7",
    });
    expect(inside.status).toBe(200);
  });

  it("list shows prefix and last four characters, never a key", async () => {
    const issued = JSON.parse(
      (
        await keys(
          stateDir,
          "create",
          "--org",
          "Listed SL",
          "--env",
          "test",
          "--rate-limit",
          "50",
        )
      ).stdout,
    );
    const result = await keys(stateDir, "list");
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(issued.key);
    const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(
      rows.find((row) => row.credential_id === issued.credential_id),
    ).toMatchObject({
      organization: "Listed SL",
      environment: "test",
      key: `sk_test_…${issued.key.slice(-4)}`,
      rate_limit_per_minute: 50,
      revoked_at: null,
    });
  });

  it("set-locale changes an organization's document language", async () => {
    await keys(stateDir, "create", "--org", "Locale SL", "--env", "test");
    const result = await keys(
      stateDir,
      "set-locale",
      "--org",
      "Locale SL",
      "eu",
    );
    expect(result.code).toBe(0);
    const rows = JSON.parse((await keys(stateDir, "list")).stdout) as Record<
      string,
      unknown
    >[];
    expect(rows.find((row) => row.organization === "Locale SL")).toMatchObject({
      document_locale: "eu",
    });
  });

  it.each([
    [["create", "--env", "test"]],
    [["create", "--org", "X", "--env", "prod"]],
    [["create", "--org", "X", "--env", "test", "--locale", "de"]],
    [["create", "--org", "X", "--env", "test", "--allow-ip", "not-an-ip"]],
    [["create", "--org", "X", "--env", "test", "--rate-limit", "0"]],
    [["create", "--org", "X", "--env", "test", "--bogus"]],
    [["revoke"]],
    [["revoke", "cred_doesnotexist"]],
    [["set-locale", "--org", "X", "xx"]],
    [["launch"]],
  ])("exits 2 with a message and nothing on stdout for %j", async (args) => {
    const result = await keys(stateDir, ...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/error|usage/);
  });
});

// The key tool as a client of the operations API of a running npm start,
// the same code path as against a deployment (`--url https://…`).
describe("npm run keys -- --url", () => {
  const local = () => `http://127.0.0.1:${port}`;
  const json = (result: { code: number; stdout: string; stderr: string }) => {
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };

  it("creates, lists, sets the locale of and revokes a key through the running service", async () => {
    const issued = json(
      await keysAt(
        local(),
        "create",
        "--org",
        "Por URL SL",
        "--env",
        "live",
        "--rate-limit",
        "70",
      ),
    );
    expect(issued.key).toMatch(/^sk_live_[0-9A-Za-z]{32,}$/);
    expect((await api("/api/v1/documents", issued.key)).status).toBe(200);

    expect(
      json(await keysAt(local(), "set-locale", "--org", "Por URL SL", "gl")),
    ).toEqual({
      organization: "Por URL SL",
      document_locale: "gl",
    });
    const rows = json(await keysAt(local(), "list")) as Record<
      string,
      unknown
    >[];
    expect(
      rows.find((row) => row.credential_id === issued.credential_id),
    ).toMatchObject({
      organization: "Por URL SL",
      document_locale: "gl",
      key: `sk_live_…${issued.key.slice(-4)}`,
      rate_limit_per_minute: 70,
      revoked_at: null,
    });

    expect(json(await keysAt(local(), "revoke", issued.credential_id))).toEqual(
      {
        credential_id: issued.credential_id,
        revoked: true,
      },
    );
    expect((await api("/api/v1/documents", issued.key)).status).toBe(401);
    const again = await keysAt(local(), "revoke", issued.credential_id);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no active credential/);
  });

  it("prints a document's audit trail", async () => {
    const issued = json(
      await keysAt(
        local(),
        "create",
        "--org",
        "Auditada URL SL",
        "--env",
        "test",
      ),
    );
    const created = await apiClient(port, issued.key)("/api/v1/documents", {
      method: "POST",
      body: JSON.stringify(minimalRequest()),
    });
    expect(created.status).toBe(201);
    const { uuid } = (await created.json()) as { uuid: string };
    expect(json(await keysAt(local(), "audit", uuid))).toEqual({
      document_uuid: uuid,
      archived: false,
      events: [
        expect.objectContaining({
          type: "issued",
          credential_id: issued.credential_id,
          source: "d1",
        }),
      ],
    });
  });

  it("verifies the gates' audit trail's chain", async () => {
    // A gate's refused and answered requests, each a row of the chain.
    const keyring = JSON.parse((await readDevVars()).GATE_KEYRING ?? "") as {
      current: string;
      keys: Record<string, string>;
    };
    const consignment = "/efti/v0/consignments/unknown?subsetId=full";
    expect((await api(consignment, "wrong")).status).toBe(401);
    expect((await api(consignment, keyring.keys[keyring.current])).status).toBe(
      404,
    );
    const verified = json(await keysAt(local(), "verify-audit"));
    expect(verified).toEqual({
      verified_rows: expect.any(Number),
      broken: null,
    });
    expect(verified.verified_rows).toBeGreaterThanOrEqual(3);
  });

  it("refuses a wrong support secret and asks for one off loopback", async () => {
    const refused = await keysAtWith(
      { DECA_SUPPORT_SECRET: "not-the-secret" },
      local(),
      "list",
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(/401.*support secret/);
    const remote = await keysAtWith(
      { DECA_SUPPORT_SECRET: "" },
      "https://deca.invalid",
      "list",
    );
    expect(remote.code).toBe(1);
    expect(remote.stderr).toMatch(/set DECA_SUPPORT_SECRET/);
  });

  it("refuses --remote and names --url", async () => {
    const result = await keys(stateDir, "list", "--remote");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/There is no --remote: use --url/);
  });
});

describe("npm start again", () => {
  it("prints the same development key on a later start", async () => {
    const first = printedKey(service.output());
    await service.stop();
    service = await startService(stateDir);
    port = service.port;
    expect(printedKey(service.output())).toBe(first);
    // The state is ready: no font put again.
    expect(service.output()).not.toContain("fallback fonts");
    expect((await api("/api/v1/documents", first)).status).toBe(200);
  });
});
