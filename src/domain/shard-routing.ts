import type { Environment } from "../schemas/environment";

// Where a row lives, computed from what the request already names, so that no
// operation needs a lookup table (docs/scale.md). Rows belong to one of
// BUCKET_COUNT buckets; bucket b lives in shard b mod S. Doubling S moves
// each bucket either nowhere or to shard (b mod 2S), never elsewhere.

export const BUCKET_COUNT = 4096;

/**
 * Demo sessions (tokens, documents, references, lists) all live in bucket 0,
 * hence shard 0 for every S: their expiry purges one database.
 */
const DEMO_BUCKET = 0;

export const shardOfBucket = (bucket: number, shardCount: number): number =>
  bucket % shardCount;

// FNV-1a, 32 bits: a stable, fast spread of names over buckets. Not a secret:
// a caller choosing references that collide only loads its own buckets.
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  return hash;
}

/** The bucket of a reference's reservation: a hash of organization, environment and reference. */
export function referenceBucket(
  scope: { organizationId: string; environment: Environment },
  reference: string,
): number {
  if (scope.environment === "demo") return DEMO_BUCKET;
  return (
    fnv1a(
      `${scope.organizationId}\u0000${scope.environment}\u0000${reference}`,
    ) % BUCKET_COUNT
  );
}

/** The home bucket of a credential, where its list lives. */
export const credentialBucket = (credential: {
  id: string;
  environment: Environment;
}): number =>
  credential.environment === "demo"
    ? DEMO_BUCKET
    : fnv1a(credential.id) % BUCKET_COUNT;

/**
 * The bucket of a credential's row, found from its key's hash by every
 * authenticated request: the hash's first 12 bits, already uniform.
 */
export const keyBucket = (keyHash: string, environment: Environment): number =>
  environment === "demo"
    ? DEMO_BUCKET
    : Number.parseInt(keyHash.slice(0, 3), 16);

/** A bucket for a document that no reservation places: any, evenly. */
export function randomBucket(environment: Environment): number {
  if (environment === "demo") return DEMO_BUCKET;
  const [random = 0] = crypto.getRandomValues(new Uint16Array(1));
  return random % BUCKET_COUNT;
}

// A document's uuid is an RFC 9562 version 8 UUID that carries its bucket
// and creation time: tttttttt-tttt-8bbb-vrrr-rrrrrrrrrrrr, with t the
// creation time in milliseconds (48 bits), b the bucket (12 bits) and 62
// random bits. Time first keeps each shard's inserts at the end of its index.

const UUID_V8 = /^([0-9a-f]{8})-([0-9a-f]{4})-8([0-9a-f]{3})-[89ab]/;

/** A new document uuid in `bucket`, created at `createdAt` (ms). */
export function newDocumentUuid(bucket: number, createdAt: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let time = createdAt;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x80 | (bucket >> 8);
  bytes[7] = bucket & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0"));
  return [
    hex.slice(0, 4).join(""),
    hex.slice(4, 6).join(""),
    hex.slice(6, 8).join(""),
    hex.slice(8, 10).join(""),
    hex.slice(10).join(""),
  ].join("-");
}

/** Bucket and creation time of a document uuid; null for a uuid issued before sharding. */
function decodeUuid(
  uuid: string,
): { bucket: number; createdAt: number } | null {
  const match = UUID_V8.exec(uuid.toLowerCase());
  if (!match) return null;
  const [, high, middle, bucket] = match as unknown as [
    string,
    string,
    string,
    string,
  ];
  return {
    bucket: Number.parseInt(bucket, 16),
    createdAt: Number.parseInt(high + middle, 16),
  };
}

/** The bucket of a document; documents issued before sharding live in bucket 0. */
export const uuidBucket = (uuid: string): number =>
  decodeUuid(uuid)?.bucket ?? 0;

/** The creation time a uuid carries; null for a uuid issued before sharding. */
export const uuidCreatedAt = (uuid: string): number | null =>
  decodeUuid(uuid)?.createdAt ?? null;

// The shard of each kind of row, among the shards in order (DB_0 first).

const inBucket = <T>(shards: readonly T[], bucket: number): T =>
  shards[shardOfBucket(bucket, shards.length)] as T;

/** The shard of a document, its audit trail and its pending notes. */
export const documentShard = <T>(shards: readonly T[], uuid: string): T =>
  inBucket(shards, uuidBucket(uuid));

/** The shard of a reference's reservation. */
export const reservationShard = <T>(
  shards: readonly T[],
  scope: { organizationId: string; environment: Environment },
  reference: string,
): T => inBucket(shards, referenceBucket(scope, reference));

/** The shard holding a credential's list. */
export const homeShard = <T>(
  shards: readonly T[],
  credential: { id: string; environment: Environment },
): T => inBucket(shards, credentialBucket(credential));

/** The shard of a credential's row, by its key's hash. */
export const credentialShard = <T>(
  shards: readonly T[],
  keyHash: string,
  environment: Environment,
): T => inBucket(shards, keyBucket(keyHash, environment));

/**
 * The shard of demo sessions (bucket 0) and of the organizations' master
 * rows; every shard holds a copy of each organization, so that a credential
 * and its organization are read together wherever the credential lives.
 */
export const directoryShard = <T>(shards: readonly T[]): T => shards[0] as T;

// While a rebalance runs (docs/scale.md "Adding shards"), a row whose
// bucket moves is in the shard the former count routed it to, in its shard
// now, or, mid-move, in both: the mover copies before it deletes.

/** The route of a document's rows (its audit trail, notes, marks), for the helpers below. */
export const toDocument =
  (uuid: string) =>
  <T>(shards: readonly T[]): T =>
    documentShard(shards, uuid);

/** Shards and, while a rebalance runs, their count before it. */
export interface ShardsMoving<T> {
  shards: readonly T[];
  shardsBefore: number | null;
}

/** The shard `route` picked before the rebalance running, when it is not the one it picks now. */
export function formerShard<T>(
  { shards, shardsBefore }: ShardsMoving<T>,
  route: (shards: readonly T[]) => T,
): T | null {
  if (shardsBefore === null || shardsBefore >= shards.length) return null;
  const former = route(shards.slice(0, shardsBefore));
  return former === route(shards) ? null : former;
}

/**
 * What `read` finds of a row and the shard it is in: the former shard is
 * read first, so that a row moved in between (copied, then deleted) is
 * found in the current one.
 */
export async function findMoving<T, R>(
  where: ShardsMoving<T>,
  route: (shards: readonly T[]) => T,
  read: (shard: T) => Promise<R | null | undefined>,
): Promise<{ shard: T; found: R } | undefined> {
  for (const shard of [formerShard(where, route), route(where.shards)]) {
    if (shard === null) continue;
    const found = await read(shard);
    if (found !== null && found !== undefined) return { shard, found };
  }
  return undefined;
}

/**
 * A conditional write decided on the copy that holds the row: the former
 * shard's while the row is there, else the current one's. A write the former
 * copy refuses stays refused (`holds` tells a refusal from a row no longer
 * there): the mover's copy in the current shard may be stale, and writing it
 * would undo the very fact that refused. `holds` reads after the write, so a
 * row the mover took in between (copied, then deleted only as it read it)
 * has every such fact in its current copy too, which refuses alike. A write
 * that lands on the former copy before the mover deletes it keeps that copy
 * there (the mover deletes only a row still as it read it) until the next
 * step merges it. True when the write took effect.
 */
export async function writeMoving<T>(
  where: ShardsMoving<T>,
  route: (shards: readonly T[]) => T,
  write: (shard: T) => Promise<boolean>,
  holds: (shard: T) => Promise<boolean>,
): Promise<boolean> {
  const former = formerShard(where, route);
  if (former !== null) {
    if (await write(former)) return true;
    if (await holds(former)) return false;
  }
  return write(route(where.shards));
}

/** Every shard that may hold the row `route` places: the former one while a rebalance runs, and the current one. */
export const shardsHolding = <T>(
  where: ShardsMoving<T>,
  route: (shards: readonly T[]) => T,
): T[] =>
  [formerShard(where, route), route(where.shards)].filter(
    (shard): shard is T => shard !== null,
  );
