import type { CredentialRow } from "../db/schema";
import type { Environment } from "../schemas/environment";
import { newId, randomBase62 } from "./random";
import { sha256Hex } from "./sha256";

// docs/api.md, Authentication and keys: `sk_<environment>_` followed by at least 32 random base62
// characters; issued keys carry 40 (about 238 bits).
const KEY_PATTERN = /^sk_(test|live|demo)_[0-9A-Za-z]{32,}$/;
const ISSUED_RANDOM_LENGTH = 40;

export const generateApiKey = (environment: Environment): string =>
  `sk_${environment}_${randomBase62(ISSUED_RANDOM_LENGTH)}`;

/** The environment a well-formed key selects, or null for anything else. */
export function environmentOfKey(key: string): Environment | null {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as Environment) : null;
}

/** SHA-256 of the key, hex: the only form in which a key is stored. */
export const hashApiKey = (key: string): Promise<string> => sha256Hex(key);

/** A key as a request presents it: well formed, with its environment and hash. */
export interface PresentedKey {
  environment: Environment;
  keyHash: string;
}

/**
 * The key of a request, hashed once for everything that needs it (the rate
 * count that starts early, authentication); null when missing or malformed.
 */
export async function presentedKey(
  key: string | null,
): Promise<PresentedKey | null> {
  const environment = key === null ? null : environmentOfKey(key);
  if (key === null || environment === null) return null;
  return { environment, keyHash: await hashApiKey(key) };
}

/** What may be shown of a key after issue: its prefix and last four characters. */
export function keyDisplayParts(key: string): {
  prefix: string;
  lastFour: string;
} {
  const environment = environmentOfKey(key);
  if (!environment) throw new Error("not an API key");
  return { prefix: `sk_${environment}_`, lastFour: key.slice(-4) };
}

/** What a new credential is: whose, where, and the limits it is given. */
export interface CredentialTerms {
  organizationId: string;
  environment: Environment;
  createdAt: number;
  allowedIps?: string[];
  rateLimitPerMinute?: number | null;
  /** Demo tokens only: end of the session and the IP it is bound to. */
  expiresAt?: number | null;
  requesterIp?: string | null;
}

/**
 * A new key and the credential row that stands for it: the one way a
 * credential is made, by the key tool, the demo and the tests. The row keeps
 * only the key's hash, prefix and last four characters; the key is shown once.
 */
export async function newCredential(
  terms: CredentialTerms,
): Promise<{ key: string; row: CredentialRow }> {
  const key = generateApiKey(terms.environment);
  const { prefix, lastFour } = keyDisplayParts(key);
  return {
    key,
    row: {
      id: newId("cred"),
      organizationId: terms.organizationId,
      environment: terms.environment,
      keyHash: await hashApiKey(key),
      keyPrefix: prefix,
      keyLastFour: lastFour,
      allowedIps: terms.allowedIps ?? [],
      rateLimitPerMinute: terms.rateLimitPerMinute ?? null,
      createdAt: terms.createdAt,
      revokedAt: null,
      expiresAt: terms.expiresAt ?? null,
      requesterIp: terms.requesterIp ?? null,
    },
  };
}
