// `npm run fixture:single-database`: remakes fixtures/single-database-state,
// the state the upgrade test (test/e2e/upgrade-from-one-database.test.ts)
// starts from. Runs by hand, in a clone that has commit OLD_COMMIT (the last
// one with a single database): checks it out in a temporary worktree, runs
// its own `npm start` on a fresh state (which writes its own .dev.vars),
// issues documents through its API, stops it, and keeps the state folder,
// the keyrings and what was issued.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import {
  copyFile,
  cp,
  mkdtemp,
  readdir,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { minimalRequest, type RequestBody } from "../fixtures/requests";
import {
  type Api,
  conflictingCreates,
  DEV_VARS_FILE,
  type DocumentName,
  ISSUED_FILE,
  type IssuedDocument,
  listedUuids,
  SINGLE_DATABASE_STATE,
  type SingleDatabaseState,
  STATE_FOLDER,
  WRANGLER_FILE,
} from "../fixtures/single-database-state";
import { apiClient, freePort, startService } from "../test/e2e/commands";
import { sqliteFiles } from "./lib/sqlite-files";

const OLD_COMMIT = "676bde8";
const git = promisify(execFile);

const sha256 = (bytes: ArrayBuffer) =>
  createHash("sha256").update(new Uint8Array(bytes)).digest("hex");

async function expectStatus(response: Response, status: number, what: string) {
  if (response.status !== status) {
    throw new Error(`${what}: ${response.status} ${await response.text()}`);
  }
}

/** Issues A, B, B2 (corrects B), C (then deleted) and D; opens A's QR link. */
async function issueDocuments(
  api: Api,
  origin: string,
): Promise<Omit<SingleDatabaseState, "made_from" | "captured_at" | "key">> {
  const documents: Partial<Record<DocumentName, IssuedDocument>> = {};
  const issue = async (
    name: DocumentName,
    body: RequestBody,
    path = "/api/v1/documents",
    method = "POST",
  ) => {
    const response = await api(path, { method, body: JSON.stringify(body) });
    // A create answers 201, a correction 200.
    await expectStatus(response, method === "POST" ? 201 : 200, name);
    const { uuid, url } = (await response.json()) as {
      uuid: string;
      url: string;
    };
    const pdf = await api(`/api/v1/documents/${uuid}/pdf`);
    await expectStatus(pdf, 200, `${name} pdf`);
    const document: IssuedDocument = {
      uuid,
      qr_path: url.slice(origin.length),
      pdf_sha256: sha256(await pdf.arrayBuffer()),
    };
    documents[name] = document;
    return document;
  };

  const requestA = { ...minimalRequest(), reference: "UPG-A" };
  const a = await issue("A", requestA);
  const b = await issue("B", { ...minimalRequest(), reference: "UPG-B" });
  await issue(
    "B2",
    { ...minimalRequest(), reference: "UPG-B-R1", observations: "Corregido." },
    `/api/v1/documents/${b.uuid}`,
    "PUT",
  );
  const c = await issue("C", { ...minimalRequest(), reference: "UPG-C" });
  await issue("D", minimalRequest());
  const deleted = await api(`/api/v1/documents/${c.uuid}`, {
    method: "DELETE",
    body: JSON.stringify({
      reason: "Pedido anulado antes de salir.",
      confirm_not_delivered: true,
      confirm_not_used: true,
    }),
  });
  await expectStatus(deleted, 204, "delete C");
  const scanned = await fetch(`${origin}${a.qr_path}`);
  await expectStatus(scanned, 200, "A's QR link");
  if (sha256(await scanned.arrayBuffer()) !== a.pdf_sha256) {
    throw new Error("A's QR link served other bytes than its PDF");
  }
  return {
    request_a: requestA,
    documents: documents as Record<DocumentName, IssuedDocument>,
    listed: await listedUuids(api),
    conflicts: await conflictingCreates(api),
  };
}

/**
 * Folds any write-ahead log into its database and checks each database
 * whole, so that the copied files need no -wal or -shm beside them.
 */
async function settleSqliteFiles(stateDir: string): Promise<void> {
  for (const file of await sqliteFiles(stateDir)) {
    const database = new DatabaseSync(file);
    database.exec("PRAGMA wal_checkpoint(TRUNCATE);");
    const check = database.prepare("PRAGMA integrity_check;").get();
    database.close();
    if (check?.integrity_check !== "ok") {
      throw new Error(`${file}: ${JSON.stringify(check)}`);
    }
  }
  const leftovers = (await readdir(stateDir, { recursive: true })).filter(
    (entry) => entry.endsWith("-wal") || entry.endsWith("-shm"),
  );
  if (leftovers.length > 0) throw new Error(`left: ${leftovers.join(", ")}`);
}

/**
 * What the fixture leaves out: the fonts bucket (15 MB; every `npm start`
 * uploads its own commit's fonts) and miniflare's traces; neither is the
 * old service's data.
 */
async function leftOut(stateDir: string): Promise<Set<string>> {
  const paths = new Set(
    ["v3/r2/deca-fonts", "v3/observability"].map((path) =>
      join(stateDir, path),
    ),
  );
  const buckets = join(stateDir, "v3/r2/miniflare-R2BucketObject");
  for (const file of await sqliteFiles(buckets)) {
    if (file.endsWith("metadata.sqlite")) continue;
    const database = new DatabaseSync(file);
    const objects = database
      .prepare(
        `SELECT count(*) AS every, count(*) FILTER (WHERE key LIKE 'fallback/%') AS fonts
           FROM _mf_objects;`,
      )
      .get();
    database.close();
    if (objects?.fonts === objects?.every) paths.add(file);
  }
  return paths;
}

async function main(): Promise<void> {
  const repo = process.cwd();
  const work = await mkdtemp(join(tmpdir(), "deca-fixture-"));
  const oldCheckout = join(work, "checkout");
  const stateDir = join(work, STATE_FOLDER);
  await git("git", ["worktree", "add", "--detach", oldCheckout, OLD_COMMIT]);
  try {
    await symlink(
      join(repo, "node_modules"),
      join(oldCheckout, "node_modules"),
    );
    const port = await freePort();
    const service = await startService(port, stateDir, oldCheckout);
    let issued: Awaited<ReturnType<typeof issueDocuments>>;
    let key: string;
    try {
      const printed = /sk_test_[0-9A-Za-z]{32,}/.exec(service.output());
      if (!printed) throw new Error(`no key printed:\n${service.output()}`);
      key = printed[0];
      issued = await issueDocuments(
        apiClient(port, key),
        `http://localhost:${port}`,
      );
    } finally {
      await service.stop();
    }
    const left = await leftOut(stateDir);
    await settleSqliteFiles(stateDir);

    const fixture = join(repo, SINGLE_DATABASE_STATE);
    await rm(join(fixture, STATE_FOLDER), { recursive: true, force: true });
    await cp(stateDir, join(fixture, STATE_FOLDER), {
      recursive: true,
      filter: (path) => !left.has(path),
    });
    await copyFile(
      join(oldCheckout, ".dev.vars"),
      join(fixture, DEV_VARS_FILE),
    );
    await copyFile(
      join(oldCheckout, "wrangler.toml"),
      join(fixture, WRANGLER_FILE),
    );
    const state: SingleDatabaseState = {
      made_from: OLD_COMMIT,
      captured_at: Date.now(),
      key,
      ...issued,
    };
    await writeFile(
      join(fixture, ISSUED_FILE),
      `${JSON.stringify(state, null, 2)}\n`,
    );
    console.log(`Wrote ${fixture} from ${OLD_COMMIT}.`);
  } finally {
    if (existsSync(oldCheckout)) {
      await git("git", ["worktree", "remove", "--force", oldCheckout]);
    }
    await rm(work, { recursive: true, force: true });
  }
}

await main();
