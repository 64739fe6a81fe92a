import { openDatabase } from "../../src/db/client";
import { documentSummaries, documents } from "../../src/db/schema";
import { homeShard } from "../../src/domain/shard-routing";
import type { TestCredential } from "./credentials";
import { shardOf, shards } from "./shards";

interface DocumentSeed {
  uuid?: string;
  createdAt: number;
  transportDate?: string;
  reference?: string | null;
  rectifiesUuid?: string | null;
  deletedAt?: number | null;
}

/** A document row as issuing leaves it, for tests of the read side only. */
export async function seedDocument(
  owner: TestCredential,
  seed: DocumentSeed,
): Promise<string> {
  const uuid = seed.uuid ?? crypto.randomUUID();
  const row = {
    uuid,
    credentialId: owner.id,
    organizationId: owner.organizationId,
    environment: "test",
    reference: seed.reference ?? null,
    createdAt: seed.createdAt,
    transportDate: seed.transportDate ?? "2026-11-21",
    rectifiesUuid: seed.rectifiesUuid ?? null,
    deletedAt: seed.deletedAt ?? null,
    data: "{}",
    requestHash: "0".repeat(64),
    documentLocale: "es",
    qrKeyVersion: "v1",
    pdfSha256: "0".repeat(64),
    pdfSizeBytes: 1,
    pdfPages: 1,
  } as const;
  await openDatabase(shardOf(uuid)).insert(documents).values(row);
  if (row.deletedAt === null) {
    const home = homeShard(shards, { id: owner.id, environment: "test" });
    await openDatabase(home).insert(documentSummaries).values(row);
  }
  return uuid;
}
