import { env } from "cloudflare:test";
import { openDatabase } from "../../src/db/client";
import { documents } from "../../src/db/schema";
import type { TestCredential } from "./credentials";

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
  await openDatabase(env.DB)
    .insert(documents)
    .values({
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
      pdfObjectKey: `pdfs/${uuid}`,
      pdfSha256: "0".repeat(64),
      pdfSizeBytes: 1,
      pdfPages: 1,
    });
  return uuid;
}
