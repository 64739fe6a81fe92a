// `npm run keys -- audit UUID`: a document's audit trail from its shard's D1
// database and its R2 archive, for support. Never prints the body or a key.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { unstable_readConfig } from "wrangler";
import { documentShard } from "../../src/domain/shard-routing";
import {
  type ArchivedDocument,
  archiveObjectKey,
  openArchive,
} from "../../src/storage/archive-store";
import { parseKeyring } from "../../src/storage/keyring";
import { auditTrail, d1EventsSql, type TrailEntry } from "./audit-trail";
import {
  configEnvironment,
  type DatabaseTarget,
  executeSql,
  targetFlags,
  wrangler,
} from "./d1";
import { targetShards } from "./shards";

/** The D1 shard bindings (DB_0, DB_1, …) and the PDF bucket a target reaches. */
function storage(target: DatabaseTarget): {
  shards: string[];
  pdfBucket: string;
} {
  const environment = configEnvironment(target);
  const config: {
    r2_buckets: { binding: string; bucket_name?: string | undefined }[];
  } = unstable_readConfig(
    { config: "wrangler.toml", ...(environment ? { env: environment } : {}) },
    { hideWarnings: true },
  );
  const pdfs = config.r2_buckets.find((bucket) => bucket.binding === "PDFS");
  if (!pdfs?.bucket_name) throw new Error("wrangler.toml binds no PDFS bucket");
  return { shards: targetShards(target), pdfBucket: pdfs.bucket_name };
}

/** PDF_KEYRING: from the environment for --remote, from .dev.vars locally. */
async function pdfKeyring(target: DatabaseTarget) {
  const secret = target.remote
    ? process.env.PDF_KEYRING
    : parseEnv(await readFile(".dev.vars", "utf8")).PDF_KEYRING;
  if (!secret) {
    throw new Error(
      target.remote
        ? "set PDF_KEYRING in the environment to read remote archives"
        : "no PDF_KEYRING in .dev.vars",
    );
  }
  return parseKeyring(secret, "PDF_KEYRING");
}

/** The stored bytes of an R2 object, or null when there is none. */
async function r2Object(
  target: DatabaseTarget,
  path: string,
): Promise<Uint8Array | null> {
  const dir = await mkdtemp(join(tmpdir(), "deca-r2-"));
  const file = join(dir, "object");
  try {
    await wrangler([
      "r2",
      "object",
      "get",
      path,
      ...targetFlags(target),
      "--file",
      file,
    ]);
    return new Uint8Array(await readFile(file));
  } catch (error) {
    if ((error as Error).message.includes("The specified key does not exist")) {
      return null;
    }
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface DocumentAudit {
  document_uuid: string;
  /** Whether the archiver has moved the body and the trail so far to R2. */
  archived: boolean;
  events: TrailEntry[];
}

/** A document's audit trail, in time order, from D1 and the R2 archive. */
export async function documentAudit(
  target: DatabaseTarget,
  uuid: string,
): Promise<DocumentAudit> {
  const { shards, pdfBucket } = storage(target);
  const [rows = []] = await executeSql(
    target,
    documentShard(shards, uuid),
    d1EventsSql(uuid),
  );
  const stored = await r2Object(
    target,
    `${pdfBucket}/${archiveObjectKey(uuid)}`,
  );
  const archived: ArchivedDocument | null = stored
    ? await openArchive(await pdfKeyring(target), uuid, stored)
    : null;
  return {
    document_uuid: uuid,
    archived: archived !== null,
    events: auditTrail(
      rows as unknown as ArchivedDocument["auditEvents"],
      archived,
    ),
  };
}
