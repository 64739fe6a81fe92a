import {
  createExecutionContext,
  createScheduledController,
  env,
} from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { minimalRequest } from "../../../fixtures/requests";
import { STAND_IN_SEAL_FACTS } from "../../../fixtures/seal";
import { ORPHAN_AGE_MS } from "../../../src/domain/documents/attempts";
import type { DocumentPdf } from "../../../src/domain/documents/render-port";
import {
  documentShard,
  homeShard,
  referenceBucket,
  reservationShard,
  uuidBucket,
  uuidCreatedAt,
} from "../../../src/domain/shard-routing";
import { createScheduledHandler } from "../../../src/scheduled";
import { createCredential } from "../../helpers/credentials";
import { documentsApi } from "../../helpers/documents-api";
import { d1StatementsDown } from "../../helpers/faults";
import { shards } from "../../helpers/shards";
import { callWith, fixedClock } from "../../helpers/worker";

const NOW = Date.UTC(2026, 11, 2, 8);

// What is checked here is where rows go, not the PDF: a one-byte stand-in
// keeps eighty issues fast.
const renderPdf = async (): Promise<DocumentPdf> => ({
  bytes: new TextEncoder().encode("%PDF-1.7 stand-in"),
  pages: 1,
  seal: STAND_IN_SEAL_FACTS,
});

async function setup(bindings?: Env) {
  const clock = fixedClock(NOW);
  const owner = await createCredential();
  const request = callWith({ clock, renderPdf, bindings });
  return { clock, owner, api: documentsApi(request, owner.key) };
}

const withReference = (reference: string | null) => ({
  ...minimalRequest(),
  reference,
});

/** The shards that hold a row matching `sql`, by index. */
async function shardsHolding(sql: string, ...values: unknown[]) {
  const found: number[] = [];
  for (const [index, shard] of shards.entries()) {
    const row = await shard
      .prepare(sql)
      .bind(...values)
      .first();
    if (row) found.push(index);
  }
  return found;
}

describe("documents over the shards", () => {
  it("spreads one run's documents over every shard, each where its uuid says", async () => {
    const { api } = await setup();
    const issued = [];
    for (let i = 0; i < 40; i++) {
      issued.push(await api.issue(withReference(null)));
      issued.push(await api.issue(withReference(`SPREAD-${i}`)));
    }
    const counts = await Promise.all(
      shards.map(async (shard) =>
        Number(
          await shard.prepare("SELECT count(*) AS n FROM documents").first("n"),
        ),
      ),
    );
    expect(counts.every((n) => n > 0)).toBe(true);
    for (const document of issued.slice(0, 6)) {
      expect(
        await shardsHolding(
          "SELECT 1 FROM documents WHERE uuid = ?",
          document.uuid,
        ),
      ).toEqual([shards.indexOf(documentShard(shards, document.uuid))]);
      expect(uuidCreatedAt(document.uuid)).toBe(NOW);
    }
  });

  it("commits a reference's document beside its reservation", async () => {
    const { api, owner } = await setup();
    const document = await api.issue(withReference("BESIDE-1"));
    const scope = {
      organizationId: owner.organizationId,
      environment: "test",
    } as const;
    expect(uuidBucket(document.uuid)).toBe(referenceBucket(scope, "BESIDE-1"));
    const where = shards.indexOf(reservationShard(shards, scope, "BESIDE-1"));
    expect(
      await shardsHolding(
        "SELECT 1 FROM reference_reservations WHERE reference = ? AND document_uuid = ?",
        "BESIDE-1",
        document.uuid,
      ),
    ).toEqual([where]);
  });

  it("puts a correction beside its original and its new reference's reservation in that reference's shard", async () => {
    const { api, owner } = await setup();
    const original = await api.issue(withReference(null));
    const response = await api.rectify(
      original.uuid,
      withReference("NEW-REF-7"),
    );
    expect(response.status).toBe(200);
    const correction = (await response.json()) as { uuid: string };
    expect(uuidBucket(correction.uuid)).toBe(uuidBucket(original.uuid));
    const scope = {
      organizationId: owner.organizationId,
      environment: "test",
    } as const;
    expect(
      await shardsHolding(
        "SELECT 1 FROM reference_reservations WHERE reference = ?",
        "NEW-REF-7",
      ),
    ).toEqual([shards.indexOf(reservationShard(shards, scope, "NEW-REF-7"))]);
    const byReference = await api.get("ref/NEW-REF-7");
    expect(byReference.status).toBe(200);
    expect(((await byReference.json()) as { uuid: string }).uuid).toBe(
      correction.uuid,
    );
    // Still reserved: another body under it is a conflict.
    const conflict = await api.create({
      ...withReference("NEW-REF-7"),
      transport_date: "2026-12-03",
    });
    expect(conflict.status).toBe(409);
  });

  it("frees a reservation whose correction never committed", async () => {
    const { api, owner } = await setup();
    const scope = {
      organizationId: owner.organizationId,
      environment: "test",
    } as const;
    // What a Worker that died between the reservation and the commit leaves.
    await reservationShard(shards, scope, "ORPHANED-REF")
      .prepare(
        "INSERT INTO reference_reservations (organization_id, environment, reference, document_uuid, credential_id, created_at) VALUES (?, 'test', 'ORPHANED-REF', ?, ?, ?)",
      )
      .bind(
        owner.organizationId,
        "019ae1a0-0000-8000-8000-000000000000",
        owner.id,
        NOW - 3_600_000,
      )
      .run();
    expect((await api.get("ref/ORPHANED-REF")).status).toBe(404);
    const document = await api.issue(withReference("ORPHANED-REF"));
    const found = await api.get("ref/ORPHANED-REF");
    expect(((await found.json()) as { uuid: string }).uuid).toBe(document.uuid);
  });

  it("lists from the credential's home shard only", async () => {
    const { api, owner } = await setup();
    const documents = [
      await api.issue(withReference(null)),
      await api.issue(withReference("LISTED-1")),
    ];
    const home = shards.indexOf(
      homeShard(shards, { id: owner.id, environment: "test" }),
    );
    for (const document of documents) {
      expect(
        await shardsHolding(
          "SELECT 1 FROM document_summaries WHERE uuid = ?",
          document.uuid,
        ),
      ).toEqual([home]);
    }
  });

  it("issues when the list cannot be written, and the cron lists the document later", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { api, owner, clock } = await setup(
      d1StatementsDown(/insert into "document_summaries"/),
    );
    const document = await api.issue(withReference(null));
    const healthy = documentsApi(callWith({ clock, renderPdf }), owner.key);
    const listed = async () =>
      (
        (await (await healthy.list()).json()) as { data: { uuid: string }[] }
      ).data.map((row) => row.uuid);
    expect(await listed()).toEqual([]);
    expect((await healthy.get(document.uuid)).status).toBe(200);

    clock.set(NOW + ORPHAN_AGE_MS);
    await createScheduledHandler({ clock, renderPdf })(
      createScheduledController(),
      env,
      createExecutionContext(),
    );
    expect(await listed()).toEqual([document.uuid]);
    vi.restoreAllMocks();
  });
});
