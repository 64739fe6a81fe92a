// `npm run fixture:single-database`: remakes fixtures/single-database-state,
// the state the upgrade test (test/e2e/upgrade-from-one-database.test.ts)
// starts from. Runs by hand, in a clone that has commit OLD_COMMIT (the last
// one with a single database): checks it out in a temporary worktree, runs
// its own `npm start` on a fresh state (which writes its own .dev.vars),
// issues documents through its API, stops it, and keeps the state folder,
// the keyrings and what was issued.
import { createHash } from "node:crypto";
import { copyFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
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
import { apiClient, startService } from "./lib/commands";
import { keepState, withCheckoutOf } from "./lib/fixture-state";

const OLD_COMMIT = "676bde8";

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

async function main(): Promise<void> {
  const repo = process.cwd();
  await withCheckoutOf(OLD_COMMIT, async (oldCheckout, work) => {
    const stateDir = join(work, STATE_FOLDER);
    const service = await startService(stateDir, oldCheckout);
    const { port } = service;
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

    const fixture = join(repo, SINGLE_DATABASE_STATE);
    await keepState(stateDir, join(fixture, STATE_FOLDER));
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
  });
}

await main();
