import type { Environment } from "../db/schema";
import { randomBase62 } from "./random";
import { sha256Hex } from "./sha256";

// decisions.md: `sk_<environment>_` followed by at least 32 random base62
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

/** What may be shown of a key after issue: its prefix and last four characters. */
export function keyDisplayParts(key: string): {
  prefix: string;
  lastFour: string;
} {
  const environment = environmentOfKey(key);
  if (!environment) throw new Error("not an API key");
  return { prefix: `sk_${environment}_`, lastFour: key.slice(-4) };
}
