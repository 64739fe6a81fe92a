import { and, asc, eq, notExists, type SQL, sql } from "drizzle-orm";
import type { Database } from "./client";
import { type AuditEventType, auditEvents, documents } from "./schema";

export interface AuditEvent {
  documentUuid: string;
  type: AuditEventType;
  credentialId: string | null;
  requestId: string;
  occurredAt: number;
}

/** The insert of one audit event, to run alone or inside a batch. */
export const insertAuditEvent = (db: Database, event: AuditEvent) =>
  db.insert(auditEvents).values(event);

/**
 * The insert of an audit event that happens only if `condition` holds for
 * the document when the batch reaches it: the event is written exactly when
 * the state change before it in the same batch took effect.
 */
export const insertAuditEventIf = (
  db: Database,
  event: AuditEvent,
  condition: SQL,
) =>
  db.insert(auditEvents).select(
    // The fields in the table's column order, as insert-select requires.
    db
      .select({
        id: sql<number>`NULL`.as("id"),
        documentUuid: documents.uuid,
        type: sql<AuditEventType>`${event.type}`.as("type"),
        credentialId: sql<string | null>`${event.credentialId}`.as(
          "credential_id",
        ),
        requestId: sql<string>`${event.requestId}`.as("request_id"),
        occurredAt: sql<number>`${event.occurredAt}`.as("occurred_at"),
      })
      .from(documents)
      .where(and(eq(documents.uuid, event.documentUuid), condition)),
  );

/**
 * Holds while the document has no event of `type` yet: for a state change
 * whose own condition cannot tell two requests of one millisecond apart.
 */
export const noEventYet = (db: Database, uuid: string, type: AuditEventType) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.documentUuid, uuid), eq(auditEvents.type, type)),
      ),
  );

/** A document's audit events still in D1, in the order they were written. */
export const auditEventsOfDocument = (db: Database, uuid: string) =>
  db
    .select({
      id: auditEvents.id,
      type: auditEvents.type,
      credentialId: auditEvents.credentialId,
      requestId: auditEvents.requestId,
      occurredAt: auditEvents.occurredAt,
    })
    .from(auditEvents)
    .where(eq(auditEvents.documentUuid, uuid))
    .orderBy(asc(auditEvents.id));
