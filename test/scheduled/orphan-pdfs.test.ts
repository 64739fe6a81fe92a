import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { minimalRequest } from "../../fixtures/requests";
import { ORPHAN_AGE_MS } from "../../src/domain/documents/attempts";
import { createCredential } from "../helpers/credentials";
import { runCron } from "../helpers/cron";
import { documentsApi } from "../helpers/documents-api";
import { rowsOfAllShards, shardOf, shards } from "../helpers/shards";
import { callWithClock, fixedClock } from "../helpers/worker";

const NOW = Date.UTC(2026, 10, 21, 12);

/** What a Worker that died between the R2 put and the D1 batch leaves behind. */
async function abandonIssue(objectKey: string, at: number): Promise<void> {
  await env.DB_0.prepare(
    "INSERT INTO pending_pdf_objects (object_key, created_at) VALUES (?, ?)",
  )
    .bind(objectKey, at)
    .run();
  await env.PDFS.put(objectKey, "sealed bytes");
}

const pendingRows = async () =>
  (await rowsOfAllShards("SELECT object_key FROM pending_pdf_objects")).length;

describe("sweep of PDFs whose issue never committed", () => {
  it("leaves no pending note behind a committed document", async () => {
    const owner = await createCredential();
    await documentsApi(callWithClock(fixedClock(NOW)), owner.key).issue(
      minimalRequest(),
    );
    expect(await pendingRows()).toBe(0);
  });

  it("removes an orphan once it is an hour old, and nothing younger or committed", async () => {
    const owner = await createCredential();
    const committed = await documentsApi(
      callWithClock(fixedClock(NOW)),
      owner.key,
    ).issue(minimalRequest());
    await abandonIssue("documents/orphan-old.pdf", NOW);
    await abandonIssue("documents/orphan-young.pdf", NOW + 1);

    await runCron(NOW + ORPHAN_AGE_MS - 1);
    expect(await env.PDFS.head("documents/orphan-old.pdf")).not.toBeNull();

    await runCron(NOW + ORPHAN_AGE_MS);
    expect(await env.PDFS.head("documents/orphan-old.pdf")).toBeNull();
    expect(await env.PDFS.head("documents/orphan-young.pdf")).not.toBeNull();
    expect(
      await env.PDFS.head(`documents/${committed.uuid}.pdf`),
    ).not.toBeNull();
    expect(await pendingRows()).toBe(1);
  });

  it("keeps the PDF of a committed document whose note lingers in another shard", async () => {
    const owner = await createCredential();
    const committed = await documentsApi(
      callWithClock(fixedClock(NOW)),
      owner.key,
    ).issue(minimalRequest());
    const key = `documents/${committed.uuid}.pdf`;
    const elsewhere = shards.find(
      (shard) => shard !== shardOf(committed.uuid),
    ) as D1Database;
    await elsewhere
      .prepare(
        "INSERT INTO pending_pdf_objects (object_key, created_at) VALUES (?, ?)",
      )
      .bind(key, NOW)
      .run();

    await runCron(NOW + ORPHAN_AGE_MS);
    expect(await env.PDFS.head(key)).not.toBeNull();
    expect(
      await rowsOfAllShards(
        "SELECT object_key FROM pending_pdf_objects WHERE object_key = ?",
        key,
      ),
    ).toEqual([]);
  });
});
