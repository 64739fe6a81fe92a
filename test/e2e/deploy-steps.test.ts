import { createHash } from "node:crypto";
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout } from "node:timers/promises";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEV_VARS_FILE,
  PREVIOUS_RELEASE,
  type PreviousRelease,
  RELEASE_FILE,
  STATE_FOLDER,
  WORKER_FOLDER,
  WRANGLER_FILE,
} from "../../fixtures/previous-release";
import { minimalRequest } from "../../fixtures/requests";
import { checkoutWithDevVars } from "../../scripts/lib/commands";
import { executeSql } from "../../scripts/lib/d1";
import { type DeployStep, deploySteps } from "../../scripts/lib/deploy-steps";
import { newKeyring } from "../../scripts/lib/keyring";
import {
  type LocalWorker,
  startLocalWorker,
} from "../../scripts/lib/local-worker";
import { newSealKeyring } from "../../scripts/lib/seal-keyring";
import { shardBindings } from "../../scripts/lib/shards";

// `npm run deploy`'s steps (scripts/lib/deploy-steps.ts) on a local state,
// with the previous release's Worker (fixtures/previous-release, built from
// the commit deployed before this one) serving before, between and after
// them: what it issued and what it issues in between keeps being served, by
// it and, after the switch, by this commit's Worker beside it, as during a
// deploy's rollout.
const REPO = process.cwd();
const FIXTURE = join(REPO, PREVIOUS_RELEASE);

let work: string;
let stateDir: string;
let release: PreviousRelease;
let previous: LocalWorker | undefined;
let current: LocalWorker | undefined;
let steps: DeployStep[];

interface Issued {
  uuid: string;
  reference: string | null;
  qrPath: string;
  pdfSha256: string;
}
/** What the Workers issued, in order; checked after every step. */
const issued: Issued[] = [];
let deleted: Issued;

const sha256 = (bytes: ArrayBuffer) =>
  createHash("sha256").update(new Uint8Array(bytes)).digest("hex");

const api = (worker: LocalWorker, path: string, init: RequestInit = {}) =>
  fetch(`${worker.origin}${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${release.key}`,
      "Content-Type": "application/json",
    },
  });

/** Issues (POST) or corrects (PUT `corrects`) through `worker`, as a client would. */
async function issue(
  worker: LocalWorker,
  reference: string | null,
  corrects?: Issued,
): Promise<Issued> {
  // Retried as a client retries a 503: after one, an identical request
  // answers the document it may have issued already (200).
  const body = JSON.stringify({ ...minimalRequest(), reference });
  let sent = 0;
  const response = await retrying(() => {
    sent += 1;
    return api(
      worker,
      corrects ? `/api/v1/documents/${corrects.uuid}` : "/api/v1/documents",
      { method: corrects ? "PUT" : "POST", body },
    );
  });
  expect(
    corrects ? [200] : sent === 1 ? [201] : [200, 201],
    await response.clone().text(),
  ).toContain(response.status);
  const { uuid, url } = (await response.json()) as {
    uuid: string;
    url: string;
  };
  const pdf = await retrying(() =>
    api(worker, `/api/v1/documents/${uuid}/pdf`),
  );
  expect(pdf.status).toBe(200);
  const document = {
    uuid,
    reference,
    qrPath: new URL(url).pathname + new URL(url).search,
    pdfSha256: sha256(await pdf.arrayBuffer()),
  };
  issued.push(document);
  return document;
}

/**
 * `send`'s answer, sent again after a second while it is a 503, up to five
 * times, as a client retries one. The two local Workers share this state's
 * SQLite files, which lock each other out for a moment (SQLITE_BUSY, a 503
 * with Retry-After) while one writes, where D1 serves both.
 */
async function retrying(send: () => Promise<Response>): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (response.status !== 503 || attempt === 5) return response;
    await response.body?.cancel();
    await setTimeout(1000);
  }
}

/**
 * What a user sees from `worker`: every document issued so far by its QR
 * link (the same bytes), by uuid and by reference, the deleted one gone;
 * and a new document, whose QR link serves it.
 */
async function expectServes(worker: LocalWorker, reference: string) {
  for (const document of issued) {
    const scanned = await retrying(() =>
      fetch(`${worker.origin}${document.qrPath}`),
    );
    expect(scanned.status, document.uuid).toBe(200);
    expect(sha256(await scanned.arrayBuffer())).toBe(document.pdfSha256);
    const read = await retrying(() =>
      api(worker, `/api/v1/documents/${document.uuid}`),
    );
    expect(read.status, document.uuid).toBe(200);
    if (document.reference) {
      const byReference = await retrying(() =>
        api(worker, `/api/v1/documents/ref/${document.reference}`),
      );
      expect(byReference.status, document.reference).toBe(200);
    }
  }
  const gone = await retrying(() => fetch(`${worker.origin}${deleted.qrPath}`));
  expect(gone.status).toBe(404);
  const created = await issue(worker, reference);
  const scanned = await retrying(() =>
    fetch(`${worker.origin}${created.qrPath}`),
  );
  expect(sha256(await scanned.arrayBuffer())).toBe(created.pdfSha256);
}

/** The previous release's Worker, unpacked beside its wrangler.toml and keyrings. */
async function unpackPreviousRelease(): Promise<string> {
  const folder = join(work, "previous");
  const worker = join(folder, WORKER_FOLDER);
  await mkdir(worker, { recursive: true });
  for (const file of await readdir(join(FIXTURE, WORKER_FOLDER))) {
    const bytes = await readFile(join(FIXTURE, WORKER_FOLDER, file));
    await writeFile(join(worker, file.replace(/\.gz$/, "")), gunzipSync(bytes));
  }
  await cp(join(FIXTURE, WRANGLER_FILE), join(folder, "wrangler.toml"));
  await cp(join(FIXTURE, DEV_VARS_FILE), join(folder, ".dev.vars"));
  await symlink(join(REPO, "public"), join(folder, "public"));
  return join(folder, "wrangler.toml");
}

/**
 * A checkout of this commit with the previous release's keyrings, and a
 * support keyring, a webhook keyring and a seal keyring (production gets
 * them before the deploy that brings the operations API, the webhooks and
 * the sealed PDFs). Returns its support secret.
 */
async function checkoutWithReleaseKeyrings(checkout: string): Promise<string> {
  const support = newKeyring();
  await checkoutWithDevVars(
    checkout,
    `${await readFile(join(FIXTURE, DEV_VARS_FILE), "utf8")}\nSUPPORT_KEYRING='${support}'\nWEBHOOK_KEYRING='${newKeyring()}'\nSEAL_KEYRING='${await newSealKeyring()}'\n`,
  );
  const { current, keys } = JSON.parse(support) as {
    current: string;
    keys: Record<string, string>;
  };
  return keys[current] ?? "";
}

/** The migrations each shard has applied, its own D1 file read by a wrangler of its own. */
const appliedMigrations = (): Promise<string[][]> =>
  Promise.all(
    shardBindings().map(async (binding) => {
      const [rows = []] = await executeSql(
        { remote: false, persistTo: stateDir },
        binding,
        "SELECT name FROM d1_migrations ORDER BY id;",
      );
      return rows.map((row) => String(row.name));
    }),
  );

async function runStep(name: DeployStep["name"]): Promise<void> {
  const step = steps.find((candidate) => candidate.name === name);
  if (!step) throw new Error(`no deploy step ${name}`);
  await step.run();
}

beforeAll(async () => {
  release = JSON.parse(
    await readFile(join(FIXTURE, RELEASE_FILE), "utf8"),
  ) as PreviousRelease;
  work = await mkdtemp(join(tmpdir(), "deca-deploy-"));
  stateDir = join(work, STATE_FOLDER);
  await cp(join(FIXTURE, STATE_FOLDER), stateDir, { recursive: true });
  const checkout = join(work, "checkout");
  const secret = await checkoutWithReleaseKeyrings(checkout);
  steps = deploySteps({
    databases: { remote: false, persistTo: stateDir },
    switchWorker: async () => {
      current = await startLocalWorker(
        join(checkout, "wrangler.toml"),
        stateDir,
      );
      return { url: current.origin, secret };
    },
  });
  previous = await startLocalWorker(await unpackPreviousRelease(), stateDir);
  await issue(previous, "DEP-A");
  const b = await issue(previous, "DEP-B");
  await issue(previous, "DEP-B-R1", b);
  const c = await issue(previous, "DEP-C");
  issued.pop();
  const removed = await api(previous, `/api/v1/documents/${c.uuid}`, {
    method: "DELETE",
    body: JSON.stringify({
      reason: "Pedido anulado antes de salir.",
      confirm_not_delivered: true,
      confirm_not_used: true,
    }),
  });
  expect(removed.status).toBe(204);
  deleted = c;
  await issue(previous, null);
}, 120_000);

afterAll(async () => {
  try {
    await previous?.stop();
    await current?.stop();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

// A limit for a hang, not for pace: migrating every shard or uploading the
// fonts runs wrangler once per shard or file, slow on a small, loaded machine.
const STEP_LIMIT_MS = 300_000;

describe("npm run deploy's steps with the previous release serving", () => {
  it("the previous release serves its documents before the deploy", async () => {
    if (!previous) throw new Error("no previous release");
    await expectServes(previous, "DEP-BEFORE");
  });

  it(
    "expand: every shard migrated, and the previous release still serves",
    async () => {
      if (!previous) throw new Error("no previous release");
      await runStep("expand");
      const migrations = (await readdir(join(REPO, "migrations")))
        .filter((file) => file.endsWith(".sql"))
        .sort();
      // The release's migrations are the first of this commit's, none changed.
      expect(migrations.slice(0, release.migrations.length)).toEqual(
        release.migrations,
      );
      for (const applied of await appliedMigrations()) {
        expect(applied).toEqual(migrations);
      }
      await expectServes(previous, "DEP-MIGRATED");
    },
    STEP_LIMIT_MS,
  );

  it(
    "fonts: the previous release still serves",
    async () => {
      if (!previous) throw new Error("no previous release");
      await runStep("fonts");
      await expectServes(previous, "DEP-FONTS");
    },
    STEP_LIMIT_MS,
  );

  it("switch: this commit's Worker serves everything, beside the previous one", async () => {
    if (!previous) throw new Error("no previous release");
    await runStep("switch");
    if (!current) throw new Error("not switched");
    await expectServes(current, "DEP-SWITCHED");
    await expectServes(previous, "DEP-SWITCHED-OLD");
  });

  it("move: both still serve everything after the new Worker's data steps", async () => {
    if (!previous || !current) throw new Error("not switched");
    await runStep("move");
    await expectServes(current, "DEP-MOVED");
    await expectServes(previous, "DEP-MOVED-OLD");
  });
});
