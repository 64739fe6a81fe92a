import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import {
  conflictingCreates,
  DEV_VARS_FILE,
  type DocumentName,
  ISSUED_FILE,
  listedUuids,
  SINGLE_DATABASE_STATE,
  type SingleDatabaseState,
  STATE_FOLDER,
} from "../../fixtures/single-database-state";
import {
  apiClient,
  checkoutWithDevVars,
  type RunningService,
  startService,
} from "../../scripts/lib/commands";
import { executeSql } from "../../scripts/lib/d1";
import { DIRECTORY_SHARD, shardBindings } from "../../scripts/lib/shards";
import { sqliteFiles } from "../../scripts/lib/sqlite-files";
import {
  credentialBucket,
  keyBucket,
  referenceBucket,
  shardOfBucket,
} from "../../src/domain/shard-routing";
import type { Environment } from "../../src/schemas/environment";

// The upgrade from one database (docs/scale.md): the state made by the last
// single-database commit's own `npm start` (fixtures/single-database-state,
// made from 676bde8), then this commit's `npm start` on a copy of it, which
// migrates every shard and moves the rows that route elsewhere. What the old
// service issued must keep being served.
const REPO = process.cwd();
const FIXTURE = join(REPO, SINGLE_DATABASE_STATE);

let work: string;
let stateDir: string;
let port: number;
let service: RunningService | undefined;
let old: SingleDatabaseState;
let countsBefore: Record<string, number>;
let shardsAfter: ShardState[];

const api = (path: string, init?: RequestInit) =>
  apiClient(port, old.key)(path, init);
const qrLink = (name: DocumentName) =>
  `http://localhost:${port}${old.documents[name].qr_path}`;
const sha256 = (bytes: ArrayBuffer) =>
  createHash("sha256").update(new Uint8Array(bytes)).digest("hex");

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

/**
 * Moves every time of the old databases (the integer `..._at` columns) on by
 * `ms`: the documents are then as young as when the old service stopped,
 * inside the windows (24 h for reads, lists and retries) they were in.
 */
async function moveTimesOn(ms: number): Promise<void> {
  const databases = join(stateDir, "v3/d1/miniflare-D1DatabaseObject");
  for (const file of await sqliteFiles(databases)) {
    if (file.endsWith("metadata.sqlite")) continue;
    const database = new DatabaseSync(file);
    const tables = database
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table'
           AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
           AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'
           AND name NOT LIKE 'd1\\_%' ESCAPE '\\';`,
      )
      .all();
    for (const { name: table } of tables) {
      const columns = database
        .prepare(`SELECT name, type FROM pragma_table_info(?);`)
        .all(String(table));
      for (const { name: column, type } of columns) {
        if (
          !String(column).endsWith("_at") ||
          String(type).toUpperCase() !== "INTEGER"
        )
          continue;
        database
          .prepare(`UPDATE "${table}" SET "${column}" = "${column}" + ?;`)
          .run(ms);
      }
    }
    database.close();
  }
}

/** A checkout of this commit whose .dev.vars holds the fixture's keyrings. */
async function checkoutWithOldKeyrings(): Promise<string> {
  const checkout = join(work, "checkout");
  await checkoutWithDevVars(
    checkout,
    await readFile(join(FIXTURE, DEV_VARS_FILE), "utf8"),
  );
  return checkout;
}

beforeAll(async () => {
  old = JSON.parse(
    await readFile(join(FIXTURE, ISSUED_FILE), "utf8"),
  ) as SingleDatabaseState;
  work = await mkdtemp(join(tmpdir(), "deca-upgrade-"));
  stateDir = join(work, STATE_FOLDER);
  await cp(join(FIXTURE, STATE_FOLDER), stateDir, { recursive: true });
  await moveTimesOn(Date.now() - old.captured_at);

  // Read through this commit's DB_0 binding: the same file as the old DB.
  countsBefore = (
    await executeSql(local(), DIRECTORY_SHARD, COUNTS)
  )[0]?.[0] as Record<string, number>;
  service = await startService(stateDir, await checkoutWithOldKeyrings());
  port = service.port;
  shardsAfter = [];
  for (const binding of shardBindings()) {
    shardsAfter.push(await readShard(binding));
  }
}, 180_000);

afterAll(async () => {
  try {
    await service?.stop();
  } finally {
    await rm(work, { recursive: true, force: true });
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
      (["A", "B", "B2", "D"] as const)
        .map((name) => old.documents[name].uuid)
        .sort(),
    );
  });

  it("serves the old QR links with the same PDF bytes, and not the deleted one", async () => {
    for (const name of ["A", "B", "B2", "D"] as const) {
      const response = await fetch(qrLink(name));
      expect(response.status, name).toBe(200);
      expect(sha256(await response.arrayBuffer()), name).toBe(
        old.documents[name].pdf_sha256,
      );
    }
    expect((await fetch(qrLink("C"))).status).toBe(404);
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
        uuid: old.documents[name].uuid,
      });
    }
  });

  it("keeps the old references reserved: a retry gets the same document, another body a 409 as before", async () => {
    const retry = await api("/api/v1/documents", {
      method: "POST",
      body: JSON.stringify(old.request_a),
    });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ uuid: old.documents.A.uuid });
    // A reference stays reserved, its document deleted or not.
    expect(old.conflicts).toEqual([409, 409]);
    expect(await conflictingCreates(api)).toEqual(old.conflicts);
  });

  it("lists the old documents, and issues new ones beside them", async () => {
    expect(await listedUuids(api)).toEqual(old.listed);
    const created = await api("/api/v1/documents", {
      method: "POST",
      body: JSON.stringify({ ...minimalRequest(), reference: "UPG-E" }),
    });
    expect(created.status).toBe(201);
    const { uuid } = (await created.json()) as { uuid: string };
    expect(await listedUuids(api)).toEqual([...old.listed, uuid].sort());
  });
});
