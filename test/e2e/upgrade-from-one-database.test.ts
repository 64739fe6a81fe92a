import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minimalRequest, type RequestBody } from "../../fixtures/requests";
import { executeSql } from "../../scripts/lib/d1";
import { DIRECTORY_SHARD, shardBindings } from "../../scripts/lib/shards";
import type { Environment } from "../../src/db/schema";
import {
  credentialBucket,
  keyBucket,
  referenceBucket,
  shardOfBucket,
} from "../../src/domain/shard-routing";
import { freePort, type RunningService, startService } from "./commands";

// The upgrade from one database (docs/scale.md): a state made by the last
// single-database commit's own `npm start`, then this commit's `npm start` on
// the same state folder, which migrates every shard and moves the rows that
// route elsewhere. What the old service issued must keep being served.
const OLD_COMMIT = "676bde8";
const REPO = process.cwd();
const git = promisify(execFile);

let oldCheckout: string;
let stateDir: string;
let port: number;
let service: RunningService | undefined;

interface Issued {
  uuid: string;
  url: string;
  pdf: Buffer;
}

const issued: Record<string, Issued> = {};
let key: string;
let requestA: RequestBody;
let listBefore: string[];
let conflictsBefore: number[];
let countsBefore: Record<string, number>;
let shardsAfter: ShardState[];

const api = (path: string, init: RequestInit = {}) =>
  fetch(`http://localhost:${port}${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      ...init.headers,
    },
  });

async function issue(
  name: string,
  body: RequestBody,
  path = "/api/v1/documents",
  method = "POST",
): Promise<void> {
  const response = await api(path, { method, body: JSON.stringify(body) });
  // A create answers 201, a correction 200.
  expect(response.status, await response.clone().text()).toBe(
    method === "POST" ? 201 : 200,
  );
  const { uuid, url } = (await response.json()) as Issued;
  const pdf = await api(`/api/v1/documents/${uuid}/pdf`);
  expect(pdf.status).toBe(200);
  issued[name] = { uuid, url, pdf: Buffer.from(await pdf.arrayBuffer()) };
}

const listedUuids = async () => {
  const response = await api("/api/v1/documents?limit=100");
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: { uuid: string }[] };
  return data.map((document) => document.uuid).sort();
};

/** A create with an old reference and another body: never a new document. */
const conflictingCreates = () =>
  Promise.all(
    ["UPG-A", "UPG-C"].map(
      async (reference) =>
        (
          await api("/api/v1/documents", {
            method: "POST",
            body: JSON.stringify({
              ...minimalRequest(),
              reference,
              observations: "Otro envío.",
            }),
          })
        ).status,
    ),
  );

const local = () => ({ remote: false, persistTo: stateDir });

const COUNTS = `SELECT (SELECT count(*) FROM documents) AS documents,
  (SELECT count(*) FROM audit_events) AS audit_events,
  (SELECT count(*) FROM reference_reservations) AS reference_reservations;`;

type Rows = Record<string, unknown>[];

/** What one shard holds after the upgrade, read in one wrangler run. */
interface ShardState {
  counts: Record<string, number>;
  foreignKeyViolations: Rows;
  reservations: Rows;
  summaries: Rows;
  credentials: Rows;
}

async function readShard(binding: string): Promise<ShardState> {
  const [
    counts,
    foreignKeyViolations = [],
    reservations = [],
    summaries = [],
    credentials = [],
  ] = await executeSql(
    local(),
    binding,
    `${COUNTS}
     PRAGMA foreign_key_check;
     SELECT organization_id, environment, reference FROM reference_reservations;
     SELECT uuid, credential_id FROM document_summaries;
     SELECT c.id, c.environment, c.key_hash FROM credentials c
       JOIN organizations o ON o.id = c.organization_id;`,
  );
  return {
    counts: counts?.[0] as Record<string, number>,
    foreignKeyViolations,
    reservations,
    summaries,
    credentials,
  };
}

beforeAll(async () => {
  oldCheckout = await mkdtemp(join(tmpdir(), "deca-old-"));
  stateDir = await mkdtemp(join(tmpdir(), "deca-upgrade-state-"));
  await git("git", ["worktree", "add", "--detach", oldCheckout, OLD_COMMIT], {
    cwd: REPO,
  });
  // The same packages, and the same keyrings: the old start creates
  // .dev.vars through the link when this checkout has none yet.
  await symlink(join(REPO, "node_modules"), join(oldCheckout, "node_modules"));
  await symlink(join(REPO, ".dev.vars"), join(oldCheckout, ".dev.vars"));

  port = await freePort();
  service = await startService(port, stateDir, oldCheckout);
  const printed = /sk_test_[0-9A-Za-z]{32,}/.exec(service.output());
  if (!printed) throw new Error(`no key printed:\n${service.output()}`);
  key = printed[0];

  requestA = { ...minimalRequest(), reference: "UPG-A" };
  await issue("A", requestA);
  await issue("B", { ...minimalRequest(), reference: "UPG-B" });
  await issue(
    "B2",
    { ...minimalRequest(), reference: "UPG-B-R1", observations: "Corregido." },
    `/api/v1/documents/${issued.B?.uuid}`,
    "PUT",
  );
  await issue("C", { ...minimalRequest(), reference: "UPG-C" });
  await issue("D", minimalRequest());
  const deleted = await api(`/api/v1/documents/${issued.C?.uuid}`, {
    method: "DELETE",
    body: JSON.stringify({
      reason: "Pedido anulado antes de salir.",
      confirm_not_delivered: true,
      confirm_not_used: true,
    }),
  });
  expect(deleted.status).toBe(204);
  // A is the one whose QR link was opened before the upgrade.
  const scanned = await fetch(issued.A?.url ?? "");
  expect(Buffer.from(await scanned.arrayBuffer())).toEqual(issued.A?.pdf);
  listBefore = await listedUuids();
  conflictsBefore = await conflictingCreates();
  await service.stop();
  service = undefined;

  // Read through this commit's DB_0 binding: the same file as the old DB.
  countsBefore = (
    await executeSql(local(), DIRECTORY_SHARD, COUNTS)
  )[0]?.[0] as Record<string, number>;
  service = await startService(port, stateDir);
  shardsAfter = [];
  for (const binding of shardBindings()) {
    shardsAfter.push(await readShard(binding));
  }
}, 420_000);

afterAll(async () => {
  try {
    await service?.stop();
  } finally {
    await git("git", ["worktree", "remove", "--force", oldCheckout], {
      cwd: REPO,
    });
    await rm(stateDir, { recursive: true, force: true });
  }
});

describe("an old single-database state under this commit's npm start", () => {
  it("keeps every row: documents and audit in DB_0, reservations over the shards", () => {
    expect(countsBefore).toEqual({
      documents: 5,
      audit_events: expect.any(Number),
      reference_reservations: 4,
    });
    const after = shardsAfter.map((shard) => shard.counts);
    expect(after[0]).toMatchObject({
      documents: countsBefore.documents,
      audit_events: countsBefore.audit_events,
    });
    expect(
      after.reduce(
        (sum, counts) => sum + Number(counts.reference_reservations),
        0,
      ),
    ).toBe(countsBefore.reference_reservations);
    for (const shard of shardsAfter) {
      expect(shard.foreignKeyViolations).toEqual([]);
    }
  });

  it("puts each reservation, list entry and credential (with its organization) in the shard it routes to", () => {
    const environmentOf = new Map(
      shardsAfter.flatMap(({ credentials }) =>
        credentials.map((row) => [row.id, row.environment as Environment]),
      ),
    );
    const summarized: string[] = [];
    for (const [shard, { reservations, summaries }] of shardsAfter.entries()) {
      for (const row of reservations) {
        const bucket = referenceBucket(
          {
            organizationId: String(row.organization_id),
            environment: row.environment as Environment,
          },
          String(row.reference),
        );
        expect(
          shardOfBucket(bucket, shardsAfter.length),
          String(row.reference),
        ).toBe(shard);
      }
      for (const row of summaries) {
        const environment = environmentOf.get(row.credential_id);
        if (!environment) throw new Error(`no credential ${row.credential_id}`);
        const bucket = credentialBucket({
          id: String(row.credential_id),
          environment,
        });
        expect(shardOfBucket(bucket, shardsAfter.length)).toBe(shard);
        summarized.push(String(row.uuid));
      }
    }
    for (const [shard, { credentials }] of shardsAfter.entries()) {
      for (const row of credentials) {
        const bucket = keyBucket(
          String(row.key_hash),
          row.environment as Environment,
        );
        expect(shardOfBucket(bucket, shardsAfter.length)).toBe(shard);
      }
    }
    expect(environmentOf.size).toBe(1);
    expect(summarized.sort()).toEqual(
      ["A", "B", "B2", "D"].map((name) => issued[name]?.uuid).sort(),
    );
  });

  it("serves the old QR links with the same PDF bytes, and not the deleted one", async () => {
    for (const name of ["A", "B", "B2", "D"]) {
      const document = issued[name] as Issued;
      const response = await fetch(document.url);
      expect(response.status, name).toBe(200);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(document.pdf);
    }
    expect((await fetch(issued.C?.url ?? "")).status).toBe(404);
  });

  it("finds the old documents by reference", async () => {
    for (const [reference, name] of [
      ["UPG-A", "A"],
      ["UPG-B", "B"],
      ["UPG-B-R1", "B2"],
    ] as const) {
      const response = await api(`/api/v1/documents/ref/${reference}`);
      expect(response.status, reference).toBe(200);
      expect(await response.json()).toMatchObject({
        uuid: issued[name]?.uuid,
      });
    }
  });

  it("keeps the old references reserved: a retry gets the same document, another body a 409 as before", async () => {
    const retry = await api("/api/v1/documents", {
      method: "POST",
      body: JSON.stringify(requestA),
    });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ uuid: issued.A?.uuid });
    // A reference stays reserved, its document deleted or not.
    expect(conflictsBefore).toEqual([409, 409]);
    expect(await conflictingCreates()).toEqual(conflictsBefore);
  });

  it("lists the old documents, and issues new ones beside them", async () => {
    expect(await listedUuids()).toEqual(listBefore);
    await issue("E", { ...minimalRequest(), reference: "UPG-E" });
    expect(await listedUuids()).toEqual([...listBefore, issued.E?.uuid].sort());
  });
});
