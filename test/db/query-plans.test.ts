import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findDocumentsToArchive, markArchived } from "../../src/db/archive";
import {
  auditEventsOfDocument,
  insertAuditEvent,
  insertAuditEventIf,
} from "../../src/db/audit";
import { type Database, openDatabase } from "../../src/db/client";
import {
  findCredentialByKeyHash,
  insertCredential,
  insertCredentialBeside,
  insertOrganizationWithCredential,
  realCredentials,
  revokeCredential,
} from "../../src/db/credentials";
import {
  findEmptyExpiredDemoSessions,
  findExpiredDemoDocuments,
  purgeDemoSessionRows,
  purgeDocumentRows,
} from "../../src/db/demo-sessions";
import { recordAccess } from "../../src/db/document-accesses";
import {
  commitCorrection,
  commitCreatedDocument,
  markDeleted,
} from "../../src/db/document-commits";
import {
  deleteSummaries,
  insertSummary,
  listDocumentSummaries,
  listQueries,
} from "../../src/db/document-summaries";
import {
  countDemoDocuments,
  documentExists,
  findDocumentByUuid,
  findDocumentsByUuidPrefix,
  findMarkedDocuments,
  findOwnDocumentByUuid,
  findOwnDocumentForDeletion,
  findQrLinkTarget,
} from "../../src/db/documents";
import { keepFollowUp } from "../../src/db/efti-follow-ups";
import {
  appendGateCall,
  chainRows,
  chainTip,
  countRefusal,
  gateCallAnswers,
  gateCallWritten,
  listGateCalls,
} from "../../src/db/efti-gate-calls";
import {
  eftiReadsOfDocument,
  insertEftiReadIf,
  recordEftiRead,
} from "../../src/db/efti-reads";
import {
  findStaleUnsentDocuments,
  listRegistrations,
  markRegistrationsSent,
  recordFailedAttempt,
  takeDueRegistrations,
  unparkRegistrations,
} from "../../src/db/efti-registrations";
import {
  findEventDeliveries,
  pageOfEvents,
  redeliverEvent,
} from "../../src/db/event-log";
import { purgeEventsBefore } from "../../src/db/event-purge";
import {
  findStaleUnrelayedDocuments,
  findUnrelayedEvents,
  markRelayed,
  relayToHome,
} from "../../src/db/event-relay";
import { deleteRowsBefore } from "../../src/db/old-rows";
import {
  finishOpsCall,
  latestOpsCalls,
  recordOpsCall,
} from "../../src/db/ops-calls";
import {
  copyOrganization,
  setOrganizationLocale,
  upsertMasterOrganization,
} from "../../src/db/organizations";
import {
  deletePendingDeletionMarks,
  deleteUndoneDeletionMarks,
  findStalePendingDeletionMarks,
  insertPendingDeletionMarkIf,
} from "../../src/db/pending-deletion-marks";
import {
  deletePendingPdfObject,
  deletePendingPdfObjects,
  findStalePendingPdfObjects,
  insertPendingPdfObject,
} from "../../src/db/pending-pdf-objects";
import {
  copyOrganizationsPage,
  copyRows,
  deleteUnchangedRows,
  MOVES,
  type MovedTable,
  moveRowsAhead,
  pageOfTable,
} from "../../src/db/rebalance";
import {
  confirmReservation,
  findReservation,
  findReservationHolder,
  findUnconfirmedReservations,
  freeReservation,
  moveReservationAhead,
  reserveForCorrection,
} from "../../src/db/reservations";
import { type DocumentRow, documents, events } from "../../src/db/schema";
import {
  copyCredentials,
  copyReservations,
  copySummaries,
  deleteMovedCredentials,
  deleteMovedReservations,
  deleteMovedSummaries,
  realCredentialsAfter,
  reservationsBeforeSharding,
  summariesBeforeSharding,
} from "../../src/db/shard-upgrade";
import {
  failDelivery,
  findDelivery,
  findOverdueDeliveries,
  recordAttempts,
} from "../../src/db/webhook-deliveries";
import {
  deleteEndpoint,
  disableRevokedEndpoints,
  findEndpoint,
  insertEndpointUnderLimit,
  insertPing,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
} from "../../src/db/webhook-endpoints";
import { newCredential } from "../../src/domain/api-keys";
import { summaryOf } from "../../src/domain/documents/summary";
import { documentRow } from "../helpers/documents";
import { endpointRow } from "../helpers/event-rows";
import {
  declaredBoundedScans,
  recordingStatements,
  scannedTables,
} from "../helpers/query-plans";

// No query of src/db reads a whole table that grows with the
// documents (a shard holds millions of rows), unless a comment on it says
// why it is bounded. Every exported function of src/db runs here against the
// migrated schema, each statement it sends is noted, and SQLite's plan of
// each is read; a new export fails the coverage check until it runs here too.

const modules = import.meta.glob<Record<string, unknown>>("../../src/db/*.ts", {
  eager: true,
});
const sources = import.meta.glob<string>("../../src/db/*.ts", {
  eager: true,
  query: "?raw",
  import: "default",
});

/** Exports of src/db that send no SQL themselves, and why. */
const NO_SQL: Record<string, string> = {
  openDatabase: "wraps a binding",
  openShards: "wraps bindings",
  shardBindings: "lists bindings",
  reportingOutages: "wraps a binding",
  isUniqueViolation: "reads an error",
  reservationFor: "builds a row",
  noEventYet: "builds a condition",
  subscribesTo: "builds a condition",
  insertDocumentEventIf: "builds a statement of its caller's batch",
  insertRegistrationsIf: "builds a statement of its caller's batch",
  literalRow: "builds a select of literal values",
  placeholderRow: "builds a row of placeholders",
  pendingPdfNote: "builds a statement of its caller's batch",
  batchPrepared: "runs its caller's statements",
};

const NOW = 1_800_000_000_000;
/** The dataset ids the commits register, as with a gate configured. */
const PLAN_DATASETS = [
  "00000000-0000-8000-8000-000000000001",
  "00000000-0000-8000-8000-000000000002",
];
const HOUR_MS = 3_600_000;
const by = { credentialId: "cred_plan", requestId: "req_plan" };

/** A webhook endpoint of the plan's credential. */
const planEndpoint = endpointRow(by.credentialId, {
  id: "we_plan",
  createdAt: NOW,
  updatedAt: NOW,
});

const planRow = (uuid: string, changes: Partial<DocumentRow> = {}) =>
  documentRow({
    uuid,
    credentialId: by.credentialId,
    organizationId: "org_plan",
    // Live: only a live document's commit writes its registrations.
    environment: "live",
    createdAt: NOW - 2 * HOUR_MS,
    ...changes,
  });

const original = planRow("plan-original", { reference: "PLAN-1" });
const correction = planRow("plan-correction", {
  reference: "PLAN-2",
  rectifiesUuid: original.uuid,
});
const deletable = planRow("plan-deletable");
const demo = planRow("plan-demo", {
  credentialId: "cred_plan_demo",
  environment: "demo",
  expiresAt: NOW - HOUR_MS,
});
const planEvent = {
  id: "evt_000000000000000000000001",
  type: "document.issued" as const,
  credentialId: by.credentialId,
  environment: "test" as const,
  createdAt: NOW,
  documentUuid: original.uuid,
  reference: original.reference,
  rectifiesUuid: null,
  documentCreatedAt: original.createdAt,
  transportDate: original.transportDate,
  firstAccess: null,
  accessedVia: null,
  endpointId: null,
};
const scope = { organizationId: "org_plan", environment: "test" } as const;
const correctionReservation = {
  ...scope,
  reference: "PLAN-2",
  documentUuid: correction.uuid,
  credentialId: by.credentialId,
  createdAt: NOW,
  rectifiesUuid: original.uuid,
};
const planOrganization = {
  id: "org_plan",
  name: "org_plan",
  documentLocale: "es",
  createdAt: NOW,
};
const opsCall = {
  requestId: "req_plan",
  operation: "plan",
  clientIp: "192.0.2.1",
  keyVersion: "v1",
  status: null,
  startedAt: NOW,
  finishedAt: null,
};
/** A rebalance's page: every row of the exercise's shard at once. */
const PAGE = { rows: 100, bytes: 1_000_000 };
const pdfNote = { objectKey: "documents/plan-original.pdf", createdAt: NOW };
const planDelivery = {
  eventId: "evt_plan",
  endpointId: "we_plan",
  credentialId: by.credentialId,
};

/**
 * Every exported query function of src/db, in an order that gives each one
 * rows to find; every variant of its SQL (options that add statements).
 */
const exercises: Record<string, (db: Database) => Promise<unknown>> = {
  async insertOrganizationWithCredential(db) {
    for (const [id, credential] of [
      ["org_plan", { id: by.credentialId, environment: "test" }],
      [
        "org_plan_demo",
        {
          id: demo.credentialId,
          environment: "demo",
          expiresAt: NOW - HOUR_MS,
          requesterIp: "192.0.2.1",
        },
      ],
    ] as const) {
      const { row } = await newCredential({
        ...credential,
        organizationId: id,
        createdAt: NOW - 2 * HOUR_MS,
      });
      await insertOrganizationWithCredential(
        db,
        { id, name: id, documentLocale: "es", createdAt: NOW },
        { ...row, id: credential.id },
      );
    }
  },
  async insertCredential(db) {
    const { row } = await newCredential({
      organizationId: "org_plan",
      environment: "live",
      createdAt: NOW,
    });
    await insertCredential(db, row);
  },
  findCredentialByKeyHash: (db) => findCredentialByKeyHash(db, "0".repeat(64)),
  insertPendingPdfObject: async (db) =>
    insertPendingPdfObject(db, "documents/plan-other.pdf", NOW),
  async findReservation(db) {
    await findReservation(db, scope, "PLAN-1", pdfNote);
    await findReservation(db, scope, "PLAN-1");
  },
  async commitCreatedDocument(db) {
    // With a gate configured: its registrations in the same batch.
    await commitCreatedDocument(db, original, by, undefined, PLAN_DATASETS);
    await commitCreatedDocument(db, deletable, by);
    await commitCreatedDocument(db, demo, by);
  },
  commitCorrection: (db) =>
    commitCorrection(
      db,
      { ...correction, rectifiesUuid: original.uuid },
      by,
      undefined,
      { version: PLAN_DATASETS, original: PLAN_DATASETS },
    ),
  async reserveForCorrection(db) {
    await reserveForCorrection(db, correctionReservation);
    await reserveForCorrection(db, {
      ...correctionReservation,
      documentUuid: "plan-retry",
    });
  },
  // Into the shard it is read from: ignored, then deleted as read.
  moveReservationAhead: (db) => moveReservationAhead(db, db, scope, "PLAN-1"),
  findReservationHolder: async (db) => {
    await findReservationHolder(db, correctionReservation);
    await findReservationHolder(db, {
      ...correctionReservation,
      rectifiesUuid: null,
    });
  },
  findUnconfirmedReservations: (db) => findUnconfirmedReservations(db, NOW, 50),
  confirmReservation: (db) =>
    confirmReservation(db, correctionReservation, correction.uuid),
  freeReservation: (db) => freeReservation(db, correctionReservation),
  insertSummary: (db) => insertSummary(db, original),
  async listDocumentSummaries(db) {
    const filter = { credentialId: by.credentialId, createdSince: 0 };
    const page = { offset: 0, limit: 25 };
    await listDocumentSummaries(db, filter, page);
    const dates = {
      transportDateFrom: "2026-11-01",
      transportDateTo: "2026-11-30",
    };
    await listDocumentSummaries(db, { ...filter, ...dates }, page);
  },
  listQueries: (db) =>
    db.batch(
      listQueries(
        db,
        { credentialId: by.credentialId, createdSince: 0 },
        { offset: 0, limit: 25 },
      ),
    ),
  deleteSummaries: (db) => deleteSummaries(db, [original.uuid]),
  findMarkedDocuments: (db) => findMarkedDocuments(db, [original.uuid]),
  findOwnDocumentForDeletion: (db) =>
    findOwnDocumentForDeletion(db, by.credentialId, original.uuid, {
      at: NOW,
      createdSince: NOW - 1,
    }),
  findOwnDocumentByUuid: (db) =>
    findOwnDocumentByUuid(db, by.credentialId, original.uuid),
  findQrLinkTarget: (db) => findQrLinkTarget(db, original.uuid),
  findDocumentByUuid: (db) => findDocumentByUuid(db, original.uuid),
  documentExists: (db) => documentExists(db, original.uuid),
  async recordAccess(db) {
    const access = { at: NOW, lastWrittenBy: NOW - 60_000 };
    await recordAccess(db, correction.uuid, {
      ...access,
      requestId: "req_qr",
      via: "qr",
    });
    await recordAccess(db, correction.uuid, {
      ...access,
      requestId: "req_gate",
      via: "efti_gate",
      datasetId: "plan-dataset",
      gate: "plan-gate",
    });
  },
  recordEftiRead: (db) =>
    recordEftiRead(db, {
      documentUuid: original.uuid,
      type: "efti_exported",
      datasetId: null,
      gate: null,
      credentialId: by.credentialId,
      requestId: "req_export",
      occurredAt: NOW,
    }),
  eftiReadsOfDocument: (db) => eftiReadsOfDocument(db, original.uuid),
  markDeleted: (db) =>
    markDeleted(
      db,
      deletable.uuid,
      { at: NOW, reason: "plan", ...by },
      PLAN_DATASETS,
    ),
  countDemoDocuments: (db) => countDemoDocuments(db, demo.credentialId),
  insertAuditEvent: async (db) =>
    insertAuditEvent(db, {
      ...by,
      documentUuid: original.uuid,
      type: "retried",
      occurredAt: NOW,
    }),
  insertAuditEventIf: async (db) =>
    insertAuditEventIf(
      db,
      { ...by, documentUuid: original.uuid, type: "retried", occurredAt: NOW },
      sql`${documents.deletedAt} IS NULL`,
    ),
  insertEftiReadIf: async (db) =>
    insertEftiReadIf(
      db,
      {
        documentUuid: original.uuid,
        type: "efti_gate_read",
        datasetId: "plan-dataset",
        gate: "plan-gate",
        credentialId: null,
        requestId: "req_plan",
        occurredAt: NOW,
      },
      sql`${documents.deletedAt} IS NULL`,
    ),
  insertPendingDeletionMarkIf: async (db) =>
    insertPendingDeletionMarkIf(
      db,
      { documentUuid: original.uuid, createdAt: NOW },
      sql`${documents.deletedAt} IS NULL`,
    ),
  findStalePendingDeletionMarks: async (db) =>
    findStalePendingDeletionMarks(db, NOW, 50),
  deletePendingDeletionMarks: async (db) =>
    deletePendingDeletionMarks(db, [deletable.uuid]),
  deleteUndoneDeletionMarks: async (db) =>
    deleteUndoneDeletionMarks(db, [deletable.uuid]),
  insertEndpointUnderLimit: async (db) =>
    insertEndpointUnderLimit(db, planEndpoint, 16),
  listEndpoints: async (db) => listEndpoints(db, by.credentialId),
  findEndpoint: async (db) => findEndpoint(db, by.credentialId, "we_plan"),
  updateEndpoint: async (db) =>
    updateEndpoint(db, by.credentialId, "we_plan", { enabled: true }, NOW),
  rotateEndpointSecret: async (db) =>
    rotateEndpointSecret(db, by.credentialId, "we_plan", {
      sealed: "v1:sealed-2",
      previousExpiresAt: NOW + 24 * HOUR_MS,
      now: NOW,
    }),
  insertPing: async (db) =>
    insertPing(db, {
      id: "evt_0000000000000000000000ff",
      type: "ping",
      credentialId: by.credentialId,
      environment: "test",
      createdAt: NOW,
      documentUuid: null,
      reference: null,
      rectifiesUuid: null,
      documentCreatedAt: null,
      transportDate: null,
      firstAccess: null,
      accessedVia: null,
      endpointId: "we_plan",
      datasetId: null,
      shipment: null,
      message: null,
    }),
  deleteEndpoint: async (db) =>
    deleteEndpoint(db, by.credentialId, "we_plan", NOW),
  disableRevokedEndpoints: async (db) =>
    disableRevokedEndpoints(db, by.credentialId, NOW),
  deletePendingPdfObject: async (db) =>
    deletePendingPdfObject(db, pdfNote.objectKey),
  findStalePendingPdfObjects: async (db) =>
    findStalePendingPdfObjects(db, NOW, 50),
  deletePendingPdfObjects: async (db) =>
    deletePendingPdfObjects(db, ["documents/plan-other.pdf"]),
  async findDocumentsToArchive(db) {
    const archives = await findDocumentsToArchive(db, NOW, 50);
    expect(archives.length).toBeGreaterThan(0);
    return archives;
  },
  async markArchived(db) {
    const archives = await findDocumentsToArchive(db, NOW, 50);
    await markArchived(db, archives, NOW);
  },
  findExpiredDemoDocuments: (db) => findExpiredDemoDocuments(db, NOW, 50),
  purgeDocumentRows: (db) => purgeDocumentRows(db, [demo.uuid]),
  findEmptyExpiredDemoSessions: (db) =>
    findEmptyExpiredDemoSessions(db, NOW, 50),
  purgeDemoSessionRows: (db) =>
    purgeDemoSessionRows(db, [
      { credentialId: demo.credentialId, organizationId: "org_plan_demo" },
    ]),
  auditEventsOfDocument: (db) => auditEventsOfDocument(db, original.uuid),
  async pageOfEvents(db) {
    await db.insert(events).values(planEvent);
    const kept = { credentialId: by.credentialId, createdSince: NOW - HOUR_MS };
    for (const filter of [
      kept,
      { ...kept, type: "document.issued" as const },
      { ...kept, documentUuid: original.uuid },
    ]) {
      await pageOfEvents(db, filter, undefined, 11);
      await pageOfEvents(db, filter, planEvent.id, 11);
      await pageOfEvents(db, filter, planEvent, 11);
    }
  },
  findEventDeliveries: (db) =>
    findEventDeliveries(db, by.credentialId, planEvent.id, NOW - HOUR_MS),
  async redeliverEvent(db) {
    const event = { id: planEvent.id, createdSince: NOW - HOUR_MS };
    await redeliverEvent(db, by.credentialId, event, NOW);
    await redeliverEvent(
      db,
      by.credentialId,
      { ...event, endpointId: "we_plan" },
      NOW,
    );
  },
  async insertCredentialBeside(db) {
    const { row } = await newCredential({
      organizationId: "org_plan",
      environment: "test",
      createdAt: NOW,
    });
    await insertCredentialBeside(db, planOrganization, row);
    await insertCredentialBeside(db, null, {
      ...row,
      id: "cred_plan_2",
      keyHash: "1".repeat(64),
    });
  },
  revokeCredential: (db) => revokeCredential(db, "cred_plan_2", NOW),
  realCredentials: (db) => realCredentials(db),
  async recordOpsCall(db) {
    const id = await recordOpsCall(db, opsCall);
    await finishOpsCall(db, id, { status: 200, finishedAt: NOW });
  },
  finishOpsCall: (db) => finishOpsCall(db, 1, { status: 200, finishedAt: NOW }),
  latestOpsCalls: (db) => latestOpsCalls(db, 200),
  chainTip: (db) => chainTip(db),
  appendGateCall: (db) =>
    appendGateCall(
      db,
      {
        requestId: "req_plan",
        gateRequestId: "gate-plan",
        datasetId: "plan-dataset",
        subsets: "ES01",
        gate: "plan-gate",
        clientIp: "192.0.2.1",
        status: null,
        startedAt: NOW,
        finishedAt: null,
        entry: "arrived",
        operation: "get_consignment",
        subsetsServed: null,
        previousHash: "0".repeat(64),
        hash: "1".repeat(64),
      },
      "0".repeat(64),
    ),
  gateCallWritten: (db) => gateCallWritten(db, "req_plan", "answered"),
  gateCallAnswers: (db) => gateCallAnswers(db, ["req_plan", "req_plan_2"]),
  async chainRows(db) {
    await chainRows(db, { limit: 101 });
    await chainRows(db, { limit: 101, after: 10 });
    await chainRows(db, { limit: 5001, from: NOW - 86_400_000, to: NOW });
    await chainRows(db, { limit: 5001, after: 10, from: NOW - 1, to: NOW });
  },
  countRefusal: (db) =>
    countRefusal(db, { network: "192.0.2.1", minute: NOW, status: 401 }),
  async listGateCalls(db) {
    await listGateCalls(db, { limit: 51 });
    await listGateCalls(db, { limit: 51, before: 10 });
    await listGateCalls(db, { limit: 51, datasetId: "plan-dataset" });
    await listGateCalls(db, { limit: 51, before: 10, datasetId: "plan" });
  },
  findDocumentsByUuidPrefix: (db) =>
    findDocumentsByUuidPrefix(db, original.uuid.slice(0, 19)),
  async keepFollowUp(db) {
    const followUp = {
      datasetId: "plan-dataset",
      documentUuid: original.uuid,
      shipment: 1,
      message: "plan",
      messageHash: "00",
      gate: "plan-gate",
      requestId: "req_plan",
      receivedAt: NOW,
    };
    await keepFollowUp(db, { ...followUp, gateRequestId: null }, NOW - 1);
    await keepFollowUp(db, { ...followUp, gateRequestId: "plan" }, NOW - 1);
  },
  async deleteRowsBefore(db) {
    await deleteRowsBefore(db, "document_summaries", NOW, 50);
    await deleteRowsBefore(db, "ops_calls", NOW, 500);
  },
  upsertMasterOrganization: async (db) => {
    await upsertMasterOrganization(db, planOrganization, false);
    await upsertMasterOrganization(db, planOrganization, true);
  },
  copyOrganization: (db) => copyOrganization(db, planOrganization),
  setOrganizationLocale: (db) => setOrganizationLocale(db, "org_plan", "ca"),
  reservationsBeforeSharding: async (db) => {
    const [first] = await reservationsBeforeSharding(db, null, 100);
    await reservationsBeforeSharding(db, first ?? null, 100);
  },
  summariesBeforeSharding: async (db) => {
    await summariesBeforeSharding(db, null, 100);
    await summariesBeforeSharding(db, original.uuid, 100);
  },
  realCredentialsAfter: async (db) => {
    await realCredentialsAfter(db, null, 100);
    await realCredentialsAfter(db, by.credentialId, 100);
  },
  copyReservations: (db) =>
    copyReservations(db, [{ ...correctionReservation, reference: "PLAN-3" }]),
  copySummaries: (db) => copySummaries(db, [summaryOf(planRow("plan-moved"))]),
  copyCredentials: async (db) => {
    const [moved] = await realCredentialsAfter(db, null, 1);
    if (moved) await copyCredentials(db, [moved]);
  },
  deleteMovedReservations: (db) =>
    deleteMovedReservations(db, [
      { ...correctionReservation, reference: "PLAN-3" },
    ]),
  deleteMovedSummaries: (db) =>
    deleteMovedSummaries(db, [summaryOf(planRow("plan-moved"))]),
  deleteMovedCredentials: async (db) => {
    const [moved] = await realCredentialsAfter(db, null, 1);
    if (moved) await deleteMovedCredentials(db, [moved.credential]);
  },
  async pageOfTable(db) {
    for (const table of Object.keys(MOVES) as MovedTable[]) {
      await pageOfTable(db, table, 0, PAGE);
    }
  },
  // Into the shard they were read from: ignored, merged, or (events) skipped.
  async copyRows(db) {
    for (const table of Object.keys(MOVES) as MovedTable[]) {
      await copyRows(db, table, await pageOfTable(db, table, 0, PAGE));
    }
  },
  async deleteUnchangedRows(db) {
    for (const table of Object.keys(MOVES) as MovedTable[]) {
      const rows = await pageOfTable(db, table, 0, PAGE);
      await deleteUnchangedRows(db, table, rows);
      await copyRows(db, table, rows);
    }
  },
  copyOrganizationsPage: (db) => copyOrganizationsPage(db, [db], 0, 100),
  // The reads a request sends for the rows it brings ahead (none here: its
  // copy and delete are copyRows' and deleteUnchangedRows' statements).
  moveRowsAhead: (db) =>
    moveRowsAhead(db, db, [
      { table: "webhook_endpoints", column: "credential_id", values: ["none"] },
      { table: "events", column: "id", values: ["evt_none"] },
      { table: "webhook_deliveries", column: "event_id", values: ["evt_none"] },
      { table: "webhook_attempts", column: "event_id", values: ["evt_none"] },
    ]),
  takeDueRegistrations: (db) =>
    takeDueRegistrations(db, [original.uuid], NOW, NOW + 1),
  findStaleUnsentDocuments: (db) => findStaleUnsentDocuments(db, NOW + 1, 50),
  markRegistrationsSent: (db) => markRegistrationsSent(db, ["reg_plan"], NOW),
  recordFailedAttempt: (db) =>
    recordFailedAttempt(db, ["reg_plan"], { status: 400, at: NOW, next: null }),
  listRegistrations: async (db) => {
    await listRegistrations(db, { state: "parked", limit: 50 });
    await listRegistrations(db, {
      state: "unsent",
      datasetId: "none",
      limit: 50,
    });
  },
  unparkRegistrations: (db) => unparkRegistrations(db, { limit: 100 }),
  findUnrelayedEvents: (db) => findUnrelayedEvents(db, [original.uuid]),
  findStaleUnrelayedDocuments: (db) => findStaleUnrelayedDocuments(db, NOW, 50),
  async relayToHome(db) {
    await db.run(
      sql`INSERT INTO webhook_endpoints (id, credential_id, url, event_types, enabled, secret, created_at, updated_at)
          VALUES ('we_plan', ${by.credentialId}, 'https://plan.test/', '["*"]', 1, 'sealed', ${NOW}, ${NOW})`,
    );
    const events = await findUnrelayedEvents(db, [original.uuid]);
    expect(events.length).toBeGreaterThan(0);
    const { deliveries } = await relayToHome(db, events, NOW);
    expect(deliveries.length).toBeGreaterThan(0);
  },
  markRelayed: async (db) =>
    markRelayed(
      db,
      (await findUnrelayedEvents(db, [original.uuid])).map((row) => row.id),
      NOW,
    ),
  findOverdueDeliveries: (db) => findOverdueDeliveries(db, NOW + 1, 50),
  async findDelivery(db) {
    const [due] = await findOverdueDeliveries(db, NOW + 1, 1);
    const found = await findDelivery(db, due ?? planDelivery);
    expect(found.delivery).not.toBeNull();
  },
  async recordAttempts(db) {
    const [due] = await findOverdueDeliveries(db, NOW + 1, 1);
    const attempt = {
      ...(due ?? planDelivery),
      attemptedAt: NOW,
      statusCode: 500,
      error: null,
      durationMs: 5,
    };
    await recordAttempts(db, [
      {
        attempt,
        outcome: {
          status: "pending",
          nextAttemptAt: NOW + 5000,
          endpoint: { disableIfFailingSince: NOW },
        },
      },
      {
        attempt: { ...attempt, statusCode: 200 },
        outcome: {
          status: "delivered",
          nextAttemptAt: null,
          endpoint: "delivered",
        },
      },
    ]);
  },
  failDelivery: (db) => failDelivery(db, planDelivery, NOW),
  purgeEventsBefore: (db) => purgeEventsBefore(db, NOW, 100),
};

/** The statements each exercise sent, by the SQL text. */
const sentBy = new Map<string, Set<string>>();

/**
 * SQLite's plan of a statement, one line per step. Its parameters are bound
 * to null: without statistics (no ANALYZE) the plan does not depend on them.
 */
async function planOf(sql: string): Promise<string[]> {
  const parameters = sql.replace(/'[^']*'/g, "").split("?").length - 1;
  const { results } = await env.DB_0.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...Array.from({ length: parameters }, () => null))
    .all<{ detail: string }>();
  return results.map((step) => step.detail);
}

/** The module of src/db and its source that export `name`. */
const sourceOf = (name: string): string => {
  const [path] = Object.entries(modules).find(
    ([, exported]) => name in exported,
  ) ?? [""];
  return sources[path] ?? "";
};

describe("every query of src/db", () => {
  beforeAll(async () => {
    let current = "";
    const db = openDatabase(
      recordingStatements(env.DB_0, (sql) => {
        const senders = sentBy.get(sql) ?? new Set<string>();
        senders.add(current);
        sentBy.set(sql, senders);
      }),
    );
    for (const [name, exercise] of Object.entries(exercises)) {
      current = name;
      await exercise(db);
    }
  });

  it("runs here: each exported function of src/db sends SQL in this test, or is known to send none", () => {
    const functions = Object.values(modules).flatMap((exported) =>
      Object.entries(exported)
        .filter(([, value]) => typeof value === "function")
        .map(([name]) => name),
    );
    const unexercised = functions.filter(
      (name) => !(name in exercises) && !(name in NO_SQL),
    );
    expect(unexercised, "add them to `exercises` in this file").toEqual([]);
    const senders = new Set([...sentBy.values()].flatMap((set) => [...set]));
    expect(Object.keys(exercises).filter((name) => !senders.has(name))).toEqual(
      [],
    );
  });

  it("reads no growing table whole, unless a comment on the query says why that is bounded", async () => {
    const unbounded: { sql: string; plan: string[]; by: string[] }[] = [];
    for (const [sql, senders] of sentBy) {
      const plan = await planOf(sql);
      for (const table of scannedTables(plan)) {
        const undeclared = [...senders].filter(
          (name) => !declaredBoundedScans(sourceOf(name), name).includes(table),
        );
        if (undeclared.length > 0)
          unbounded.push({ sql, plan, by: undeclared });
      }
    }
    expect(unbounded).toEqual([]);
  });
});

describe("a bounded scan", () => {
  const source = [
    "export const findFew = (db: Database) =>",
    "  // Bounded scan of audit_events: at most 50 rows, the cron's own.",
    "  db.select().from(auditEvents).limit(50);",
    "export const findAll = (db: Database) => db.select().from(documents);",
  ].join("\n");

  it("is declared by a comment with its reason inside the export, for that table only", () => {
    expect(declaredBoundedScans(source, "findFew")).toEqual(["audit_events"]);
    expect(declaredBoundedScans(source, "findAll")).toEqual([]);
  });

  it("counts a scan through a covering index, and not a search", () => {
    expect(
      scannedTables([
        "SCAN documents USING COVERING INDEX documents_hot_idx",
        "SEARCH audit_events USING INDEX audit_events_document_idx (document_uuid=?)",
        "SCAN json_each VIRTUAL TABLE INDEX 1:",
      ]),
    ).toEqual(["documents"]);
  });
});
