import { env } from "cloudflare:test";
import { openDatabase } from "../../src/db/client";
import {
  credentials,
  type Environment,
  organizations,
} from "../../src/db/schema";
import {
  generateApiKey,
  hashApiKey,
  keyDisplayParts,
} from "../../src/domain/api-keys";
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
  const db = openDatabase(env.DB);
  const environment = options.environment ?? "test";
  const organizationId = options.organizationId ?? newId("org");
  if (!options.organizationId) {
    await db.insert(organizations).values({
      id: organizationId,
      name: `Org ${organizationId}`,
      createdAt: Date.now(),
    });
  }
  const key = generateApiKey(environment);
  const { prefix, lastFour } = keyDisplayParts(key);
  const id = newId("cred");
  await db.insert(credentials).values({
    id,
    organizationId,
    environment,
    keyHash: await hashApiKey(key),
    keyPrefix: prefix,
    keyLastFour: lastFour,
    allowedIps: options.allowedIps ?? [],
    createdAt: Date.now(),
    revokedAt: options.revokedAt ?? null,
    expiresAt: options.expiresAt ?? null,
    requesterIp: options.requesterIp ?? null,
    rateLimitPerMinute: options.rateLimitPerMinute ?? null,
  });
  return { key, id, organizationId };
}
