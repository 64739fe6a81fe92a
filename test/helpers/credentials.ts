import { env } from "cloudflare:test";
import { openDatabase } from "../../src/db/client";
import {
  insertCredential,
  insertOrganizationWithCredential,
} from "../../src/db/credentials";
import type { Environment } from "../../src/db/schema";
import { newCredential } from "../../src/domain/api-keys";
import { newId } from "../../src/domain/random";

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
  const db = openDatabase(env.DB_0);
  const { organizationId = newId("org"), revokedAt = null, ...terms } = options;
  const createdAt = Date.now();
  const { key, row } = await newCredential({
    ...terms,
    environment: options.environment ?? "test",
    organizationId,
    createdAt,
  });
  const credential = { ...row, revokedAt };
  if (options.organizationId) {
    await insertCredential(db, credential);
  } else {
    await insertOrganizationWithCredential(
      db,
      {
        id: organizationId,
        name: `Org ${organizationId}`,
        documentLocale: "es",
        createdAt,
      },
      credential,
    );
  }
  return { key, id: row.id, organizationId };
}
