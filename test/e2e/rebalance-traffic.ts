import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { minimalRequest } from "../../fixtures/requests";
import { shardOfBucket, uuidBucket } from "../../src/domain/shard-routing";
import { keyClient } from "./rebalance-webhooks";

// What one key does to the documents it issued on 4 shards while the
// rebalance to 8 moves them (test/e2e/rebalance.test.ts): corrections whose
// new reference another of its documents holds (its reservation not moved
// yet), corrections with new references, and a deletion racing the first QR
// scan of one document; then what each answered is checked against what the
// service serves once everything moved.

interface Listed {
  uuid: string;
  reference: string | null;
  rectifies_uuid: string | null;
}

interface Served {
  uuid: string;
  reference: string | null;
  url: string;
  pdf: { sha256: string };
}

/** The documents API with one key, on one origin. */
function keyApi(origin: string, key: string) {
  const api = keyClient(origin, key);
  return (method: string, path: string, body?: unknown) =>
    api(method, `/documents${path}`, body);
}

/** Every document of a key's list, all its pages. */
async function listAll(origin: string, key: string): Promise<Listed[]> {
  const api = keyApi(origin, key);
  const all: Listed[] = [];
  for (let page = 1; ; page++) {
    const list = (await api("GET", `?limit=100&page=${page}`)).json<{
      data: Listed[];
    }>();
    if (list.data.length === 0) return all;
    all.push(...list.data);
  }
}

/** A QR link's answer: its status and the SHA-256 of its bytes. */
async function openQr(origin: string, url: string) {
  const response = await fetch(url.replace(/^https?:\/\/[^/]+/, origin));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}

/** The documents the changes below take, none of them opened by its QR link yet. */
interface ChangePlan {
  /** Corrected with a reference `holder` carries: each must be refused. */
  held: { target: Listed; holder: Listed & { reference: string } }[];
  /** Corrected with a reference of their own. */
  corrected: Listed[];
  /** Deleted while their QR link is opened for the first time. */
  raced: Served[];
}

const ofEachHalf = <T>(items: T[]) => [
  items.slice(0, Math.ceil(items.length / 2)),
  items.slice(Math.ceil(items.length / 2)),
];

/**
 * Picks `count` documents of a key for each change among those that move
 * from 4 shards to 8 and were never corrected; the holders of the references
 * are `count` other such documents.
 */
export async function planChanges(
  origin: string,
  key: string,
  count: number,
): Promise<ChangePlan> {
  const listed = await listAll(origin, key);
  const rectified = new Set(listed.map((entry) => entry.rectifies_uuid));
  const moving = listed.filter(
    (entry) =>
      !rectified.has(entry.uuid) &&
      shardOfBucket(uuidBucket(entry.uuid), 8) !==
        shardOfBucket(uuidBucket(entry.uuid), 4),
  );
  const holders = moving
    .filter(
      (entry): entry is Listed & { reference: string } =>
        entry.reference !== null,
    )
    .slice(0, count);
  const others = moving.filter((entry) => !holders.some((h) => h === entry));
  const [held, corrected, raced] = [0, 1, 2].map((n) =>
    others.slice(n * count, (n + 1) * count),
  );
  const api = keyApi(origin, key);
  return {
    held: holders.flatMap((holder, index) => {
      const target = held?.[index];
      return target ? [{ target, holder }] : [];
    }),
    corrected: corrected ?? [],
    raced: await Promise.all(
      (raced ?? []).map(async (entry) =>
        (await api("GET", `/${entry.uuid}`)).json<Served>(),
      ),
    ),
  };
}

/** What the changes answered, for the checks after the move. */
interface ChangeAnswers {
  held: {
    reference: string;
    holder: string;
    status: number;
    code?: string;
  }[];
  corrected: { original: string; status: number; version?: Served }[];
  raced: { document: Served; qr: number; deletion: number }[];
}

// A deletion makes four calls one after another before its commit, a first
// scan two: sent at once, the scan wins.
const SCAN_DELAY_MS = 80;

const DELETION = {
  reason: "Anulado durante el reparto",
  confirm_not_delivered: true,
  confirm_not_used: true,
};

/**
 * Runs the changes of `plan`, two at a time: half the corrections with a
 * held reference before `started` is called (the rebalance's start: their
 * reservations have not moved), the rest beside what it starts, and what
 * that resolves to.
 */
export async function runChanges<T>(
  origin: string,
  key: string,
  plan: ChangePlan,
  started: () => Promise<T>,
): Promise<{ answers: ChangeAnswers; during: T }> {
  const api = keyApi(origin, key);
  const answers: ChangeAnswers = { held: [], corrected: [], raced: [] };
  const held = plan.held.map(({ target, holder }) => async () => {
    const answer = await api("PUT", `/${target.uuid}`, {
      ...minimalRequest(),
      reference: holder.reference,
    });
    answers.held.push({
      reference: holder.reference,
      holder: holder.uuid,
      status: answer.status,
      code:
        answer.status === 409
          ? answer.json<{ errors: { code: string }[] }>().errors[0]?.code
          : undefined,
    });
  });
  const corrected = plan.corrected.map((original) => async () => {
    const answer = await api("PUT", `/${original.uuid}`, {
      ...minimalRequest(),
      reference: `${original.reference ?? original.uuid}-E2E`,
    });
    answers.corrected.push({
      original: original.uuid,
      status: answer.status,
      version: answer.status === 200 ? answer.json<Served>() : undefined,
    });
  });
  const raced = plan.raced.map((document, index) => async () => {
    const [qr, deletion] = await Promise.all([
      sleep(index * SCAN_DELAY_MS).then(() => openQr(origin, document.url)),
      api("DELETE", `/${document.uuid}`, DELETION),
    ]);
    answers.raced.push({
      document,
      qr: qr.status,
      deletion: deletion.status,
    });
  });
  const [before, beside] = ofEachHalf(held);
  await inPairs(before ?? []);
  const during = started();
  // Interleaved, so that each kind meets every table the mover is at.
  const rest = interleave(beside ?? [], corrected, raced);
  await inPairs(rest);
  return { answers, during: await during };
}

const interleave = <T>(...lists: T[][]): T[] =>
  Array.from(
    { length: Math.max(...lists.map((list) => list.length)) },
    (_, index) => lists.flatMap((list) => list.slice(index, index + 1)),
  ).flat();

async function inPairs(tasks: (() => Promise<void>)[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await (tasks[next++] as () => Promise<void>)();
  };
  await Promise.all([worker(), worker()]);
}

/**
 * What the service serves once everything moved, against what each change
 * answered: the problems found (none expected) and how many documents the
 * changes added to (corrections) or took off (deletions) the key's list.
 */
export async function checkChanges(
  origin: string,
  key: string,
  answers: ChangeAnswers,
): Promise<{ problems: string[]; listed: number }> {
  const api = keyApi(origin, key);
  const problems: string[] = [];
  const listed = await listAll(origin, key);
  const withReference = (reference: string) =>
    listed.filter((entry) => entry.reference === reference).map((e) => e.uuid);
  for (const change of answers.held) {
    if (change.status !== 409 || change.code !== "REFERENCE_CONFLICT") {
      problems.push(
        `correction with held ${change.reference}: ${change.status} ${change.code}`,
      );
    }
    const holders = withReference(change.reference);
    if (holders.length !== 1 || holders[0] !== change.holder) {
      problems.push(
        `${change.reference} printed by ${holders.join(", ")}, held by ${change.holder}`,
      );
    }
    const byReference = await api("GET", `/ref/${change.reference}`);
    if (byReference.json<{ uuid?: string }>().uuid !== change.holder) {
      problems.push(`/ref/${change.reference} answers ${byReference.status}`);
    }
  }
  let added = 0;
  for (const change of answers.corrected) {
    const { version } = change;
    if (!version) {
      problems.push(`correction of ${change.original}: ${change.status}`);
      continue;
    }
    added += 1;
    const byReference = await api("GET", `/ref/${version.reference}`);
    const qr = await openQr(origin, version.url);
    if (
      byReference.json<{ uuid?: string }>().uuid !== version.uuid ||
      qr.status !== 200 ||
      qr.sha256 !== version.pdf.sha256
    ) {
      problems.push(`correction ${version.uuid} not served as issued`);
    }
  }
  let removed = 0;
  for (const { document, qr, deletion } of answers.raced) {
    const deleted = deletion === 204;
    // The first scan is recorded before it is served, and blocks the deletion.
    const expected = deleted ? 404 : 200;
    if (qr !== expected || (!deleted && deletion !== 409)) {
      problems.push(`${document.uuid}: QR ${qr} beside deletion ${deletion}`);
    }
    if (deleted) removed += 1;
    const status = (await api("GET", `/${document.uuid}/status`)).json<{
      status?: string;
    }>().status;
    const after = await openQr(origin, document.url);
    if (
      status !== (deleted ? "deleted" : "active") ||
      after.status !== expected ||
      (!deleted && after.sha256 !== document.pdf.sha256)
    ) {
      problems.push(
        `${document.uuid}: ${status}, QR ${after.status} after the move`,
      );
    }
  }
  return { problems, listed: added - removed };
}
