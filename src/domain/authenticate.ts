import type { Clock } from "../clock";
import type { Database } from "../db/client";
import { findCredentialByKeyHash } from "../db/credentials";
import { DomainError } from "../errors";
import {
  type DocumentLocale,
  isDocumentLocale,
} from "../schemas/document-locale";
import type { Environment } from "../schemas/environment";
import type { PresentedKey } from "./api-keys";
import {
  credentialShard,
  findMoving,
  type ShardsMoving,
} from "./shard-routing";

/** The caller behind a valid API key. */
export interface Credential {
  id: string;
  organizationId: string;
  environment: Environment;
  rateLimitPerMinute: number | null;
  /** End of a demo session; null for real keys. */
  expiresAt: number | null;
  /** The language of the labels of the PDFs it issues now (its organization's). */
  documentLocale: DocumentLocale;
}

/**
 * Resolves an API key to its credential: 401 for a missing, malformed,
 * unknown, revoked or expired key; 403 when the caller's IP is not allowed.
 */
export async function authenticate(
  shards: ShardsMoving<Database>,
  clock: Clock,
  key: PresentedKey | null,
  clientIp: string,
): Promise<Credential> {
  if (!key) throw new DomainError("UNAUTHENTICATED");
  const { environment, keyHash } = key;
  const row = (
    await findMoving(
      shards,
      (all) => credentialShard(all, keyHash, environment),
      (db) => findCredentialByKeyHash(db, keyHash),
    )
  )?.found;
  if (
    !row ||
    !sameHash(row.keyHash, keyHash) ||
    row.environment !== environment ||
    row.revokedAt !== null ||
    (row.expiresAt !== null && clock.now() >= row.expiresAt)
  ) {
    throw new DomainError("UNAUTHENTICATED");
  }

  // A demo token works from the exact address that asked for it, not its
  // network (the demo's limits count that: demo-network.ts): the binding
  // guards a token that leaked, so it is as narrow as it can be.
  const allowed = row.requesterIp ? [row.requesterIp] : row.allowedIps;
  if (allowed.length > 0 && !allowed.includes(clientIp)) {
    throw new DomainError("IP_NOT_ALLOWED");
  }

  return {
    id: row.id,
    organizationId: row.organizationId,
    environment: row.environment,
    rateLimitPerMinute: row.rateLimitPerMinute,
    expiresAt: row.expiresAt,
    documentLocale: isDocumentLocale(row.documentLocale)
      ? row.documentLocale
      : "es",
  };
}

function sameHash(stored: string, computed: string): boolean {
  const encoder = new TextEncoder();
  const a = encoder.encode(stored);
  const b = encoder.encode(computed);
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}
