import type { Database } from "../../db/client";
import {
  commitCorrection,
  commitCreatedDocument,
} from "../../db/document-commits";
import { insertSummary } from "../../db/document-summaries";
import { countDemoDocuments, findDocumentByUuid } from "../../db/documents";
import { isUniqueViolation } from "../../db/errors";
import {
  deletePendingPdfObject,
  insertPendingPdfObject,
} from "../../db/pending-pdf-objects";
import type { DocumentRow } from "../../db/schema";
import { DomainError, serviceUnavailable } from "../../errors";
import {
  type DocumentData,
  type DocumentRequest,
  splitRequest,
} from "../../schemas/document-request";
import type { Credential } from "../authenticate";
import { announceEvents } from "../events/announce";
import type { Services } from "../services";
import { sha256Hex } from "../sha256";
import {
  findMoving,
  homeShard,
  newDocumentUuid,
  randomBucket,
  referenceBucket,
  shardsHolding,
  toDocument,
  uuidBucket,
} from "../shard-routing";
import { ATTEMPT_COMMIT_MS } from "./attempts";
import {
  type CorrectionReservation,
  releaseUncommittedReservation,
  reserveCorrectionReference,
  settleRefusedReservation,
} from "./correction-reservation";
import { documentData } from "./document-body";
import {
  datasetIdsOfStored,
  datasetIdsToRegister,
  registeredDocuments,
} from "./efti-registration";
import { fallbackFontsFor } from "./fallback-fonts";
import { qrUrl } from "./links";
import { documentTooLarge, MAX_PDF_BYTES } from "./pdf-size";
import { referenceConflict } from "./reference-conflict";
import type { DocumentPdf, SealFacts } from "./render-port";
import { requestHash } from "./request-hash";
import { sealOf } from "./seal";
import { summaryOf } from "./summary";

export const pdfObjectKey = (uuid: string): string => `documents/${uuid}.pdf`;

/** The uuid of the document an object key names. */
export const uuidOfObjectKey = (objectKey: string): string =>
  objectKey.replace(/^documents\//, "").replace(/\.pdf$/, "");

/**
 * The bucket of a new version: a correction's is its original's (one batch
 * commits both); a create's with a reference is its reservation's; any other
 * spreads evenly.
 */
function bucketOf(
  credential: Credential,
  reference: string | null,
  rectifies: { uuid: string } | undefined,
): number {
  if (rectifies) return uuidBucket(rectifies.uuid);
  if (reference !== null) return referenceBucket(credential, reference);
  return randomBucket(credential.environment);
}

/**
 * The uuid and creation time of a version about to be issued. Given to
 * issueDocument, it says that the note of its PDF is already written.
 */
export interface IssuePlan {
  uuid: string;
  createdAt: number;
}

export function planIssue(
  services: Pick<Services, "clock">,
  credential: Credential,
  reference: string | null,
  rectifies?: { uuid: string },
): IssuePlan {
  const createdAt = services.clock.now();
  const bucket = bucketOf(credential, reference, rectifies);
  return { uuid: newDocumentUuid(bucket, createdAt), createdAt };
}

/**
 * The PDF a version would have, rendered as its issue renders it, with the
 * fallback fonts its text needs (a font that cannot be had is a 503): the
 * one place that applies the 5 MB rule (DOCUMENT_TOO_LARGE), for an issue
 * and for a dry run.
 */
export async function renderNewVersion(
  services: Services,
  credential: Credential,
  data: DocumentData,
  { uuid, createdAt }: IssuePlan,
  { rectifies, dryRun }: { rectifies?: DocumentRow; dryRun: boolean },
): Promise<DocumentPdf> {
  const pdf = await services.renderPdf({
    data,
    uuid,
    createdAt,
    rectifies: rectifies
      ? { uuid: rectifies.uuid, data: await documentData(services, rectifies) }
      : null,
    qrUrl: await qrUrl(services, {
      uuid,
      environment: credential.environment,
      qrKeyVersion: services.qrKeyring.current,
    }),
    locale: credential.documentLocale,
    environment: credential.environment,
    fallbackFonts: await fallbackFontsFor(services.fonts, data),
    seal: sealOf(
      services.seals,
      credential.environment,
      services.timestamping,
      {
        dryRun,
      },
    ),
  });
  if (pdf.bytes.byteLength > MAX_PDF_BYTES) throw documentTooLarge();
  return pdf;
}

/** What a version's row records beside its request and its issuer. */
export interface VersionFacts {
  uuid: string;
  createdAt: number;
  rectifiesUuid: string | null;
  qrKeyVersion: string;
  requestHash: string;
  pdf: { sha256: string; sizeBytes: number; pages: number; seal: SealFacts };
}

/** The row of a version as its batch commits it. */
export function versionRow(
  credential: Credential,
  request: DocumentRequest,
  facts: VersionFacts,
): DocumentRow {
  const { data, metadata } = splitRequest(request);
  return {
    uuid: facts.uuid,
    credentialId: credential.id,
    organizationId: credential.organizationId,
    environment: credential.environment,
    reference: data.reference,
    createdAt: facts.createdAt,
    transportDate: data.transport_date,
    rectifiesUuid: facts.rectifiesUuid,
    rectifiedByUuid: null,
    deletedAt: null,
    deleteReason: null,
    firstQrAccessAt: null,
    data: JSON.stringify(data),
    metadata: metadata === null ? null : JSON.stringify(metadata),
    requestHash: facts.requestHash,
    documentLocale: credential.documentLocale,
    qrKeyVersion: facts.qrKeyVersion,
    pdfSha256: facts.pdf.sha256,
    pdfSizeBytes: facts.pdf.sizeBytes,
    pdfPages: facts.pdf.pages,
    pdfSeal: JSON.stringify(facts.pdf.seal),
    // A demo document lives as long as its session.
    expiresAt: credential.expiresAt,
    archivedAt: null,
    lastQrAccessAt: null,
  };
}

/**
 * Issues a new version (a demo session only up to its document limit, every
 * version counted): a correction's new reference reserved, the PDF rendered
 * (DOCUMENT_TOO_LARGE over 5 MB, before anything is stored) and stored
 * encrypted, then one batch that commits the row, a create's reservation and
 * the audit events, for a correction only while its original is neither
 * deleted nor rectified, and for a demo session only while it is under its
 * limit (so that parallel requests cannot pass the count together). Until
 * that batch commits nothing is visible. A refused commit answers
 * DEMO_DOCUMENT_LIMIT when the session reached it, else REFERENCE_CONFLICT
 * (a create) or DOCUMENT_ALREADY_RECTIFIED (a correction: the caller reads
 * why).
 */
export async function issueDocument(
  services: Services,
  credential: Credential,
  request: DocumentRequest,
  rectifies?: DocumentRow,
  plan?: IssuePlan,
): Promise<DocumentRow> {
  const { data } = splitRequest(request);
  const { uuid, createdAt } =
    plan ?? planIssue(services, credential, data.reference, rectifies);
  const db = await commitShard(services, uuid, rectifies);
  const objectKey = pdfObjectKey(uuid);
  // Until the commit is sent, a failure is certain to have committed
  // nothing: what this attempt wrote under its own uuid may go.
  let noted = plan !== undefined;
  let put = false;
  let reservation: CorrectionReservation | null = null;
  let row: DocumentRow;
  try {
    // A correction's new reference first: a conflict costs no rendering.
    if (rectifies && data.reference !== null) {
      reservation = await reserveCorrectionReference(services, credential, {
        uuid,
        createdAt,
        reference: data.reference,
        rectifiesUuid: rectifies.uuid,
      });
    }
    const pdf = await renderNewVersion(
      services,
      credential,
      data,
      { uuid, createdAt },
      { rectifies, dryRun: false },
    );
    row = versionRow(credential, request, {
      uuid,
      createdAt,
      rectifiesUuid: rectifies?.uuid ?? null,
      qrKeyVersion: services.qrKeyring.current,
      requestHash: await requestHash(request),
      pdf: {
        sha256: await sha256Hex(pdf.bytes),
        sizeBytes: pdf.bytes.byteLength,
        pages: pdf.pages,
        seal: pdf.seal,
      },
    });
    // Noted before the put, so that a Worker dying between the put and the
    // commit leaves an orphan the sweep finds (sweep-orphan-pdfs.ts).
    if (!noted) await insertPendingPdfObject(db, objectKey, createdAt);
    noted = true;
    put = true;
    await services.pdfs.put(objectKey, pdf.bytes, {
      environment: row.environment,
      createdAt,
      expiresAt: row.expiresAt,
      qrKeyVersion: row.qrKeyVersion,
      deletedAt: null,
    });
    // Past this, its leftovers may count as abandoned (attempts.ts).
    if (services.clock.now() - createdAt > ATTEMPT_COMMIT_MS) {
      throw serviceUnavailable("database");
    }
  } catch (error) {
    await removeAttempt(services, credential, {
      objectKey,
      noted,
      put,
      reservation,
    });
    throw error;
  }

  const committed = await commitVersion(services, db, row, credential, {
    version: await datasetIdsToRegister(services, credential.environment, {
      uuid,
      data,
    }),
    // A corrected original is withdrawn from the gate.
    original: rectifies ? await datasetIdsOfStored(services, rectifies) : [],
  });
  if (!committed) {
    // Refused for certain: nothing of this attempt is visible.
    await removeAttempt(services, credential, {
      objectKey,
      noted,
      put,
      reservation: null,
    });
    const limited = await demoLimitReached(services, credential);
    if (reservation) {
      await settleRefusedReservation(services, credential, reservation).catch(
        () => undefined,
      );
    }
    if (limited) {
      throw new DomainError("DEMO_DOCUMENT_LIMIT", {
        limit: services.demo.documentsPerToken,
      });
    }
    throw rectifies ? alreadyRectified() : referenceConflict();
  }
  if (credential.environment !== "demo") {
    announceEvents(
      services,
      rectifies ? [uuid, rectifies.uuid] : [uuid],
      registeredDocuments(
        services,
        credential.environment,
        rectifies ? [uuid, rectifies.uuid] : [uuid],
      ),
    );
  }
  // Listed in the credential's home shard. The document is issued whatever
  // happens here: a failure is logged and the note stays, so that the sweep
  // lists it (as it does when the Worker dies before this).
  const listing = insertSummary(
    homeShard(services.shards, credential),
    summaryOf(row),
  );
  services.background(
    "document_listing",
    listing.then(() => forgetPdfNote(services, uuid, objectKey)),
  );
  await listing.catch(() => undefined);
  return row;
}

/**
 * Where a version commits: its uuid's shard; a correction, beside its
 * original (same bucket), in the shard that still holds it while a
 * rebalance runs, since its commit is conditional on it.
 */
async function commitShard(
  services: Services,
  uuid: string,
  rectifies: DocumentRow | undefined,
): Promise<Database> {
  const route = toDocument(uuid);
  if (!rectifies || services.shardsBefore === null)
    return route(services.shards);
  const holding = await findMoving(services, route, (db) =>
    findDocumentByUuid(db, rectifies.uuid),
  );
  return holding?.shard ?? route(services.shards);
}

/**
 * Whether a demo session has issued as many versions as it may (every
 * demo document lives in its session's home shard, shard-routing.ts).
 */
async function demoLimitReached(
  services: Services,
  credential: Credential,
): Promise<boolean> {
  if (credential.environment !== "demo") return false;
  const issued = await countDemoDocuments(
    homeShard(services.shards, credential),
    credential.id,
  );
  return issued >= services.demo.documentsPerToken;
}

const alreadyRectified = (): DomainError =>
  new DomainError("DOCUMENT_ALREADY_RECTIFIED");

/**
 * Sends a version's commit: true once it is committed, false when D1
 * refused it (the reference taken, the original deleted or rectified).
 * When the answer is lost, the batch may have been applied: the row read
 * back decides; if even that fails, the error stands and everything the
 * attempt left stays for the sweep, which checks again before removing.
 */
async function commitVersion(
  services: Services,
  db: Database,
  row: DocumentRow,
  credential: Credential,
  datasetIds: { version: readonly string[]; original: readonly string[] },
): Promise<boolean> {
  const by = { credentialId: credential.id, requestId: services.requestId };
  const cap =
    credential.environment === "demo"
      ? { credentialId: credential.id, max: services.demo.documentsPerToken }
      : undefined;
  try {
    const { rectifiesUuid } = row;
    if (rectifiesUuid === null) {
      return await commitCreatedDocument(db, row, by, cap, datasetIds.version);
    }
    return await commitCorrection(
      db,
      { ...row, rectifiesUuid },
      by,
      cap,
      datasetIds,
    );
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    const stored = await findDocumentByUuid(db, row.uuid).catch(() => {
      throw error;
    });
    if (stored) return true;
    throw error;
  }
}

/**
 * Removes the note of a version's PDF from every shard it may have been
 * written in: a correction's is written in each shard its original is
 * looked for in, both while a rebalance moves its bucket (docs/scale.md).
 */
export const forgetPdfNote = (
  services: Pick<Services, "shards" | "shardsBefore">,
  uuid: string,
  objectKey: string,
): Promise<unknown> =>
  Promise.all(
    shardsHolding(services, toDocument(uuid)).map((shard) =>
      deletePendingPdfObject(shard, objectKey),
    ),
  );

/**
 * Removes what an attempt that committed nothing wrote under its own uuid
 * (its PDF, then the PDF's note) and a reservation it made fresh. Best
 * effort: whatever stays, the cron removes after checking the truth.
 */
async function removeAttempt(
  services: Services,
  credential: Credential,
  attempt: {
    objectKey: string;
    noted: boolean;
    put: boolean;
    reservation: CorrectionReservation | null;
  },
): Promise<void> {
  const { objectKey, reservation } = attempt;
  const pdfGone = attempt.put
    ? services.pdfs.delete(objectKey)
    : Promise.resolve();
  await Promise.allSettled([
    // The note goes only once its PDF is gone.
    attempt.noted &&
      pdfGone.then(() =>
        forgetPdfNote(services, uuidOfObjectKey(objectKey), objectKey),
      ),
    reservation &&
      releaseUncommittedReservation(services, credential, reservation),
  ]);
}
