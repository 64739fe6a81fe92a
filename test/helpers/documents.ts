import { openDatabase } from "../../src/db/client";
import {
  type DocumentRow,
  documentSummaries,
  documents,
} from "../../src/db/schema";
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

/** A whole document row as issuing leaves it, with `fields` in place of its defaults. */
export const documentRow = (
  fields: Pick<
    DocumentRow,
    "uuid" | "credentialId" | "organizationId" | "createdAt"
  > &
    Partial<DocumentRow>,
): DocumentRow => ({
  environment: "test",
  reference: null,
  transportDate: "2026-11-21",
  rectifiesUuid: null,
  rectifiedByUuid: null,
  deletedAt: null,
  deleteReason: null,
  firstQrAccessAt: null,
  data: "{}",
  metadata: null,
  requestHash: "0".repeat(64),
  documentLocale: "es",
  qrKeyVersion: "v1",
  pdfSha256: "0".repeat(64),
  pdfSizeBytes: 1,
  pdfPages: 1,
  // As a document issued before PDFs were sealed.
  pdfSeal: null,
  expiresAt: null,
  archivedAt: null,
  lastQrAccessAt: null,
  ...fields,
});

/** A document row as issuing leaves it, for tests of the read side only. */
export async function seedDocument(
  owner: TestCredential,
  seed: DocumentSeed,
): Promise<string> {
  const uuid = seed.uuid ?? crypto.randomUUID();
  const row = documentRow({
    uuid,
    credentialId: owner.id,
    organizationId: owner.organizationId,
    createdAt: seed.createdAt,
    ...(seed.transportDate ? { transportDate: seed.transportDate } : {}),
    reference: seed.reference ?? null,
    rectifiesUuid: seed.rectifiesUuid ?? null,
    deletedAt: seed.deletedAt ?? null,
  });
  await openDatabase(shardOf(uuid)).insert(documents).values(row);
  if (row.deletedAt === null) {
    const home = homeShard(shards, { id: owner.id, environment: "test" });
    await openDatabase(home).insert(documentSummaries).values(row);
  }
  return uuid;
}
