import { openDatabase } from "../../src/db/client";
import { insertCredential } from "../../src/db/credentials";
import { organizations } from "../../src/db/schema";
import { newCredential } from "../../src/domain/api-keys";
import { newId } from "../../src/domain/random";
import { credentialShard } from "../../src/domain/shard-routing";
import type { Environment } from "../../src/schemas/environment";
import { shards } from "./shards";

export interface TestCredential {
  key: string;
  id: string;
  organizationId: string;
}

interface CredentialOptions {
  environment?: Environment;
  organizationId?: string;
  allowedIps?: string[];
  revokedAt?: number | null;
  expiresAt?: number | null;
  requesterIp?: string | null;
  rateLimitPerMinute?: number | null;
}

/** An organization (new unless given) with one credential, straight into D1. */
export async function createCredential(
  options: CredentialOptions = {},
): Promise<TestCredential> {
  const { organizationId = newId("org"), revokedAt = null, ...terms } = options;
  const createdAt = Date.now();
  const { key, row } = await newCredential({
    ...terms,
    environment: options.environment ?? "test",
    organizationId,
    createdAt,
  });
  const credential = { ...row, revokedAt };
  // As the key tool does: the organization in every shard, the credential
  // in its key's shard.
  if (!options.organizationId) {
    for (const shard of shards) {
      await openDatabase(shard)
        .insert(organizations)
        .values({
          id: organizationId,
          name: `Org ${organizationId}`,
          documentLocale: "es",
          createdAt,
        });
    }
  }
  await insertCredential(
    openDatabase(credentialShard(shards, row.keyHash, row.environment)),
    credential,
  );
  return { key, id: row.id, organizationId };
}
