import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { ENVIRONMENTS } from "../schemas/environment";
import { ACCESSED_VIA, EVENT_TYPES } from "../schemas/event";
import { ATTEMPT_ERRORS, DELIVERY_STATUSES } from "../schemas/event-result";

// Every shard (DB_0 … DB_{S-1}) has every table; what a shard holds:
// - organizations: every shard (a copy each, written by the key tool);
// - credentials: the shard of their key's hash (demo tokens: shard 0);
// - documents, their audit events and pending notes: the shard of the uuid;
// - reference_reservations: the shard of the reference's hash;
// - document_summaries: the home shard of the credential (its list).
// No foreign keys between these tables: their rows may live apart.
//
// Times are integer milliseconds since the Unix epoch (UTC): window rules are
// plain comparisons and the API formats them as ISO 8601 with `Z`.

export const AUDIT_EVENT_TYPES = [
  "issued",
  "retried",
  "rectified",
  "deleted",
  "qr_accessed",
  "pdf_downloaded",
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  documentLocale: text("document_locale").notNull().default("es"),
  createdAt: integer("created_at").notNull(),
});

export const credentials = sqliteTable(
  "credentials",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id),
    environment: text("environment", { enum: ENVIRONMENTS }).notNull(),
    // SHA-256 of the whole key, hex; the key itself is stored nowhere.
    keyHash: text("key_hash").notNull().unique(),
    keyPrefix: text("key_prefix").notNull(),
    keyLastFour: text("key_last_four").notNull(),
    // JSON array of IP addresses; empty allows any IP.
    allowedIps: text("allowed_ips", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    // Requests a minute; null means the service default.
    rateLimitPerMinute: integer("rate_limit_per_minute"),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
    // Demo tokens only: end of the demo session and the IP it is bound to.
    expiresAt: integer("expires_at"),
    requesterIp: text("requester_ip"),
  },
  (t) => [
    index("credentials_organization_idx").on(t.organizationId),
    index("credentials_expires_at_idx").on(t.expiresAt),
    check(
      "credentials_environment_check",
      sql`${t.environment} IN ('test', 'live', 'demo')`,
    ),
  ],
);

export const documents = sqliteTable(
  "documents",
  {
    uuid: text("uuid").primaryKey(),
    credentialId: text("credential_id").notNull(),
    organizationId: text("organization_id").notNull(),
    environment: text("environment", { enum: ENVIRONMENTS }).notNull(),
    reference: text("reference"),
    createdAt: integer("created_at").notNull(),
    transportDate: text("transport_date").notNull(),
    rectifiesUuid: text("rectifies_uuid"),
    rectifiedByUuid: text("rectified_by_uuid"),
    deletedAt: integer("deleted_at"),
    deleteReason: text("delete_reason"),
    // The first access, by its QR link or by an eFTI gate's read: from then
    // on the document can no longer be deleted.
    firstQrAccessAt: integer("first_qr_access_at"),
    // The normalized request (the result's `data`) and the metadata, as JSON;
    // both null once the archiver moved them to R2 (archivedAt set).
    data: text("data"),
    metadata: text("metadata"),
    // Hash of the canonical form of data plus metadata: recognises a retry.
    requestHash: text("request_hash").notNull(),
    documentLocale: text("document_locale").notNull(),
    // Version of the QR keyring key that derives this document's `k`.
    qrKeyVersion: text("qr_key_version").notNull(),
    pdfSha256: text("pdf_sha256").notNull(),
    pdfSizeBytes: integer("pdf_size_bytes").notNull(),
    pdfPages: integer("pdf_pages").notNull(),
    // The PDF's seal as the result's `pdf.seal` says it (JSON: level,
    // subject, timestamp); null for a document issued before PDFs were sealed.
    pdfSeal: text("pdf_seal"),
    // Demo documents expire with their token.
    expiresAt: integer("expires_at"),
    // When the archiver moved the body and audit trail to R2.
    archivedAt: integer("archived_at"),
    // The access last written (QR or gate: audit row and event): a later
    // one is written only a minute after it (qr-access-writes.ts).
    lastQrAccessAt: integer("last_qr_access_at"),
  },
  (t) => [
    // A version is rectified at most once: the last guard against two
    // concurrent corrections of the same document (both live in its shard).
    uniqueIndex("documents_rectifies_unique").on(t.rectifiesUuid),
    // Partial indexes stay small: only demo documents expire, and only the
    // last day's documents wait for the archiver.
    index("documents_expires_at_idx")
      .on(t.expiresAt)
      .where(sql`${t.expiresAt} IS NOT NULL`),
    index("documents_hot_idx")
      .on(t.createdAt)
      .where(sql`${t.archivedAt} IS NULL`),
    // A demo session's documents (its limit, its purge): the demo is public,
    // and shard 0 holds millions of other documents.
    index("documents_demo_credential_idx")
      .on(t.credentialId)
      .where(sql`${t.environment} = 'demo'`),
    check(
      "documents_environment_check",
      sql`${t.environment} IN ('test', 'live', 'demo')`,
    ),
  ],
);

// A reference, once used, stays reserved for its organization and environment,
// even after its document is deleted.
export const referenceReservations = sqliteTable(
  "reference_reservations",
  {
    organizationId: text("organization_id").notNull(),
    environment: text("environment", { enum: ENVIRONMENTS }).notNull(),
    reference: text("reference").notNull(),
    // May live in another shard (a correction's new reference): no foreign key.
    documentUuid: text("document_uuid").notNull(),
    credentialId: text("credential_id").notNull(),
    createdAt: integer("created_at").notNull(),
    // A correction's reservation: the version it corrects, whose one
    // correction holds the reference whichever attempt's uuid commits
    // (src/domain/documents/correction-reservation.ts). Null once the
    // reservation is confirmed, and for a create's (committed with its
    // document in one batch).
    rectifiesUuid: text("rectifies_uuid"),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.environment, t.reference] }),
    uniqueIndex("reference_reservations_document_idx").on(t.documentUuid),
    // The corrections' reservations not yet confirmed, for the cron.
    index("reference_reservations_unconfirmed_idx")
      .on(t.createdAt)
      .where(sql`${t.rectifiesUuid} IS NOT NULL`),
  ],
);

// A PDF put in R2 whose document is not committed yet. Issuing removes the
// row in the batch that commits the document; a row that outlives its
// request (the Worker died between the two) names an orphan for the sweep.
export const pendingPdfObjects = sqliteTable(
  "pending_pdf_objects",
  {
    objectKey: text("object_key").primaryKey(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("pending_pdf_objects_created_at_idx").on(t.createdAt)],
);

// What a credential's list shows of its documents of the last 24 hours, in
// the credential's home shard, so that a list reads one shard. Removed when
// its document is deleted, and by the archiver once out of the window.
export const documentSummaries = sqliteTable(
  "document_summaries",
  {
    uuid: text("uuid").primaryKey(),
    credentialId: text("credential_id").notNull(),
    reference: text("reference"),
    createdAt: integer("created_at").notNull(),
    transportDate: text("transport_date").notNull(),
    rectifiesUuid: text("rectifies_uuid"),
  },
  (t) => [
    // Newest first, uuid as tie-breaker; holding every column the list
    // filters on, it counts the total from the index alone.
    index("document_summaries_list_idx").on(
      t.credentialId,
      sql`${t.createdAt} DESC`,
      sql`${t.uuid} DESC`,
      t.transportDate,
    ),
    index("document_summaries_created_at_idx").on(t.createdAt),
  ],
);

// A deletion committed in D1 but not yet written into its PDF object's
// metadata (which QR links read once the deletion window has closed). The
// scheduled task finishes what a request could not.
export const pendingDeletionMarks = sqliteTable(
  "pending_deletion_marks",
  {
    documentUuid: text("document_uuid").primaryKey(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("pending_deletion_marks_created_at_idx").on(t.createdAt)],
);

export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    documentUuid: text("document_uuid").notNull(),
    type: text("type", { enum: AUDIT_EVENT_TYPES }).notNull(),
    // Null for QR accesses, which carry no credential.
    credentialId: text("credential_id"),
    requestId: text("request_id").notNull(),
    occurredAt: integer("occurred_at").notNull(),
  },
  (t) => [
    index("audit_events_document_idx").on(t.documentUuid, t.occurredAt),
    check(
      "audit_events_type_check",
      sql`${t.type} IN ('issued', 'retried', 'rectified', 'deleted', 'qr_accessed', 'pdf_downloaded')`,
    ),
  ],
);

export type OrganizationRow = typeof organizations.$inferSelect;
export type CredentialRow = typeof credentials.$inferSelect;
export type DocumentRow = typeof documents.$inferSelect;

// Every call of the operations API let in (/ops/v1, docs/operations.md), in
// DB_0: written when the call arrives, its status when it is answered (null:
// the answer was lost or the Worker died); a refusal is a log line, not a
// row. Never a secret.
export const opsCalls = sqliteTable(
  "ops_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requestId: text("request_id").notNull(),
    operation: text("operation").notNull(),
    clientIp: text("client_ip").notNull(),
    // The support keyring's version the secret matched; null on the rows of
    // refusals, recorded before refusals became log lines.
    keyVersion: text("key_version"),
    status: integer("status"),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [index("ops_calls_started_at_idx").on(t.startedAt)],
);

export type OpsCallRow = typeof opsCalls.$inferSelect;

// The audit trail of the eFTI gates (/efti/v0, docs/efti.md "Gates"), in
// DB_0, append-only: a request let in is a row when it arrives (`entry`
// "arrived", before it runs) and another when answered ("answered", its
// status); a refusal is one row ("refused"). No row is ever updated or
// deleted: each names the hash of the row before it (`previous_hash`) and
// carries its own (`hash`, src/domain/operations/gate-call-chain.ts), so an
// altered, removed or inserted row breaks the chain. Rows written before the
// chain have no entry, operation or hash. `gate` is the GATE_KEYRING version
// matched, null for a refusal. Never a secret.
export const eftiGateCalls = sqliteTable(
  "efti_gate_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requestId: text("request_id").notNull(),
    // The gate's own id of the request (its `requestId` parameter, else its
    // X-Request-Id header), which Reg. 2025/2243 Art. 3(2)(c) has kept.
    gateRequestId: text("gate_request_id"),
    datasetId: text("dataset_id").notNull(),
    // The subsetId values asked for, comma-separated ("" for none), bounded.
    subsets: text("subsets").notNull(),
    gate: text("gate"),
    clientIp: text("client_ip").notNull(),
    status: integer("status"),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
    entry: text("entry", { enum: ["arrived", "answered", "refused"] }),
    operation: text("operation", { enum: ["get_consignment", "follow_up"] }),
    // The subsets served, normalised and comma-separated, on an answer that
    // served a consignment; else null.
    subsetsServed: text("subsets_served"),
    previousHash: text("previous_hash"),
    hash: text("hash"),
  },
  (t) => [
    index("efti_gate_calls_started_at_idx").on(t.startedAt),
    index("efti_gate_calls_dataset_idx").on(t.datasetId, t.id),
    // An answer found by its request (the list; a lost insert's retry).
    index("efti_gate_calls_request_idx").on(t.requestId),
  ],
);

// The refusals of the gates' interface beyond GATE_REFUSALS_KEPT a minute
// from one network, which the trail does not keep a row each: one counter
// per network and minute, in DB_0, so that a flood writes a bounded number
// of rows and loses none.
export const eftiGateRefusals = sqliteTable(
  "efti_gate_refusals",
  {
    network: text("network").notNull(),
    // The minute, in ms since the epoch (a multiple of 60,000).
    minute: integer("minute").notNull(),
    count: integer("count").notNull(),
    firstStatus: integer("first_status").notNull(),
    lastStatus: integer("last_status").notNull(),
  },
  (t) => [primaryKey({ columns: [t.network, t.minute] })],
);

export type EftiGateCallRow = typeof eftiGateCalls.$inferSelect;

export const EFTI_READ_TYPES = ["efti_gate_read", "efti_exported"] as const;
export type EftiReadType = (typeof EFTI_READ_TYPES)[number];

// Reads of a document's eFTI data, in its audit trail beside audit_events
// (whose type check names only the older events), in the document's shard:
// a gate's read (written with its access, at most once a minute: `gate` its
// GATE_KEYRING version) and its owner's exports (`credential_id`).
// `dataset_id` is null for the owner's list of datasets.
export const eftiReads = sqliteTable(
  "efti_reads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    documentUuid: text("document_uuid").notNull(),
    type: text("type", { enum: EFTI_READ_TYPES }).notNull(),
    datasetId: text("dataset_id"),
    gate: text("gate"),
    credentialId: text("credential_id"),
    requestId: text("request_id").notNull(),
    occurredAt: integer("occurred_at").notNull(),
  },
  (t) => [index("efti_reads_document_idx").on(t.documentUuid, t.occurredAt)],
);

// The follow-up messages gates post about a consignment, in its document's
// shard: one per dataset and text (a gate's retry of the same message is the
// same row), written in one batch with the owner's event.
export const eftiFollowUps = sqliteTable(
  "efti_follow_ups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    datasetId: text("dataset_id").notNull(),
    documentUuid: text("document_uuid").notNull(),
    shipment: integer("shipment").notNull(),
    // SHA-256 of the message (UTF-8), hex.
    messageHash: text("message_hash").notNull(),
    message: text("message").notNull(),
    gate: text("gate").notNull(),
    requestId: text("request_id").notNull(),
    // The gate's own id of the request (as the audit trail keeps it), or
    // null: a retry that carries it is the same message.
    gateRequestId: text("gate_request_id"),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [
    // Looked up before each insert: a gate's retry is written once (no
    // unique index: migrations add no constraint, docs/operations.md).
    index("efti_follow_ups_message_idx").on(t.datasetId, t.messageHash),
    index("efti_follow_ups_document_idx").on(t.documentUuid),
  ],
);

// Events (docs/webhooks.md). A fact's event is first written in the batch
// that commits the fact, in the document's shard (event_outbox); it is then
// relayed to its credential's home shard (events), where the events API lists
// it and its deliveries to the credential's webhook endpoints are tracked.

/** The columns an event carries, wherever it is kept. */
const eventColumns = {
  id: text("id").primaryKey(),
  type: text("type", { enum: EVENT_TYPES }).notNull(),
  credentialId: text("credential_id").notNull(),
  environment: text("environment", { enum: ENVIRONMENTS }).notNull(),
  createdAt: integer("created_at").notNull(),
  // The document's facts the event carries (null for a ping).
  documentUuid: text("document_uuid"),
  reference: text("reference"),
  rectifiesUuid: text("rectifies_uuid"),
  documentCreatedAt: integer("document_created_at"),
  transportDate: text("transport_date"),
  // document.accessed: whether it was the document's first access (1/0),
  // and how (null: qr, as every access was before gates read documents).
  firstAccess: integer("first_access", { mode: "boolean" }),
  accessedVia: text("accessed_via", { enum: ACCESSED_VIA }),
  // ping: the endpoint it tests.
  endpointId: text("endpoint_id"),
  // document.efti_follow_up: the consignment, its shipment, the gate's text.
  datasetId: text("dataset_id"),
  shipment: integer("shipment"),
  message: text("message"),
};

export const eventOutbox = sqliteTable(
  "event_outbox",
  {
    ...eventColumns,
    // When the relay wrote it to the home shard; null until then.
    relayedAt: integer("relayed_at"),
  },
  (t) => [
    index("event_outbox_unrelayed_idx")
      .on(t.createdAt)
      .where(sql`${t.relayedAt} IS NULL`),
    index("event_outbox_created_at_idx").on(t.createdAt),
    // Both the first QR access's event and a deletion's are written once per
    // document; their batches look for an earlier one.
    index("event_outbox_document_idx").on(t.documentUuid, t.type),
  ],
);

export const events = sqliteTable("events", eventColumns, (t) => [
  index("events_list_idx").on(
    t.credentialId,
    sql`${t.createdAt} DESC`,
    sql`${t.id} DESC`,
  ),
  // A list of one type or one document reads their events only, in order.
  index("events_type_idx").on(
    t.credentialId,
    t.type,
    sql`${t.createdAt} DESC`,
    sql`${t.id} DESC`,
  ),
  index("events_document_idx").on(
    t.credentialId,
    t.documentUuid,
    sql`${t.createdAt} DESC`,
    sql`${t.id} DESC`,
  ),
  index("events_created_at_idx").on(t.createdAt),
]);

export type EventRow = typeof events.$inferSelect;

export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    credentialId: text("credential_id").notNull(),
    url: text("url").notNull(),
    // JSON array of event types, or ["*"] for every type.
    eventTypes: text("event_types", { mode: "json" })
      .$type<string[]>()
      .notNull(),
    description: text("description"),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    // "failing" when the service disabled it after 3 days of failures,
    // "revoked" when its key was revoked.
    disabledReason: text("disabled_reason"),
    // The first failed attempt since the last delivered one.
    failingSince: integer("failing_since"),
    // The signing secret, encrypted under WEBHOOK_KEYRING (its version inside).
    secret: text("secret").notNull(),
    // After a rotation: the former secret, which still signs until then.
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: integer("previous_secret_expires_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_credential_idx").on(t.credentialId)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    credentialId: text("credential_id").notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull(),
    // Failed attempts since its retries began (the backoff counts them).
    attempts: integer("attempts").notNull().default(0),
    // When the next attempt is due; null once delivered or failed.
    nextAttemptAt: integer("next_attempt_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    // When its retries began (the backoff and the 3 days count from it) if
    // a redelivery restarted them; null: at created_at.
    retryingSince: integer("retrying_since"),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.endpointId] }),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    // An endpoint disabled after 3 days of failures fails its pending ones.
    index("webhook_deliveries_endpoint_idx")
      .on(t.endpointId)
      .where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_created_at_idx").on(t.createdAt),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    // Where it lives (the credential's home shard), for the rebalance.
    credentialId: text("credential_id").notNull(),
    attemptedAt: integer("attempted_at").notNull(),
    // The endpoint's HTTP status, or null when no answer came (see error).
    statusCode: integer("status_code"),
    // Why no status says the attempt failed (ATTEMPT_ERRORS); null otherwise.
    error: text("error", { enum: ATTEMPT_ERRORS }),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [
    index("webhook_attempts_event_idx").on(t.eventId, t.attemptedAt),
    index("webhook_attempts_attempted_at_idx").on(t.attemptedAt),
  ],
);

export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

// The eFTI gate's registrations (docs/efti.md "Registration with the gate"):
// when a gate is configured, the batch that issues, corrects or deletes a
// document writes one row per dataset of the version, in the document's
// shard; the events queue's consumer PUTs each dataset's identifier
// document, built from the document as it then is, and marks the row sent.
// Kept as long as the document's row.
export const eftiRegistrations = sqliteTable(
  "efti_registrations",
  {
    id: text("id").primaryKey(),
    datasetId: text("dataset_id").notNull(),
    documentUuid: text("document_uuid").notNull(),
    createdAt: integer("created_at").notNull(),
    // When the gate answered 2xx; null until then.
    sentAt: integer("sent_at"),
    // PUTs tried since it was written (or last sent again by the operations API).
    attempts: integer("attempts").notNull().default(0),
    // Not tried again before then: one chain of attempts a row, whoever
    // sends it (its message or the cron). Null: due since created_at.
    nextAttemptAt: integer("next_attempt_at"),
    // The gate's status to the last failed PUT; null when no answer came.
    lastStatus: integer("last_status"),
    // When the gate refused it for good (a 4xx): never tried again until
    // the operations API sends it again.
    parkedAt: integer("parked_at"),
  },
  (t) => [
    index("efti_registrations_unsent_idx")
      .on(t.createdAt)
      .where(sql`${t.sentAt} IS NULL`),
    index("efti_registrations_document_idx")
      .on(t.documentUuid)
      .where(sql`${t.sentAt} IS NULL`),
    index("efti_registrations_sent_idx")
      .on(t.sentAt)
      .where(sql`${t.sentAt} IS NOT NULL`),
    index("efti_registrations_parked_idx")
      .on(t.parkedAt)
      .where(sql`${t.parkedAt} IS NOT NULL`),
  ],
);

export type EftiRegistrationRow = typeof eftiRegistrations.$inferSelect;
