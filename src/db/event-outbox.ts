import { and, eq, ne, type SQL, sql } from "drizzle-orm";
import type { AccessedVia, EventType } from "../schemas/event";
import type { Database } from "./client";
import { documents, eventOutbox } from "./schema";

/** A document's fact, as its event records it. */
export interface DocumentFact {
  type: Exclude<EventType, "ping">;
  documentUuid: string;
  occurredAt: number;
  /** document.accessed: whether it is the document's first access, and how. */
  firstAccess?: boolean;
  accessedVia?: AccessedVia;
  /** document.efti_follow_up: the consignment and the gate's message. */
  followUp?: { datasetId: string; shipment: number; message: string };
}

/** A new event id, drawn by SQLite in the batch that writes the event. */
const newEventId = sql<string>`'evt_' || lower(hex(randomblob(12)))`;

/**
 * The insert of a document's event into its shard's outbox, taking effect
 * only if `condition` holds for the document when the batch reaches it: the
 * event is written exactly when the fact before it in the same batch took
 * effect, with the document's facts as they then are. Demo documents have
 * no events.
 */
export const insertDocumentEventIf = (
  db: Database,
  fact: DocumentFact,
  condition: SQL | undefined,
) =>
  db.insert(eventOutbox).select(
    // The fields in the table's column order, as insert-select requires.
    db
      .select({
        id: newEventId.as("id"),
        type: sql<string>`${fact.type}`.as("type"),
        credentialId: documents.credentialId,
        environment: documents.environment,
        createdAt: sql<number>`${fact.occurredAt}`.as("created_at"),
        documentUuid: documents.uuid,
        reference: documents.reference,
        rectifiesUuid: documents.rectifiesUuid,
        documentCreatedAt: sql<number>`${documents.createdAt}`.as(
          "document_created_at",
        ),
        transportDate: documents.transportDate,
        firstAccess: sql<number | null>`${
          fact.firstAccess === undefined ? null : Number(fact.firstAccess)
        }`.as("first_access"),
        accessedVia: sql<AccessedVia | null>`${fact.accessedVia ?? null}`.as(
          "accessed_via",
        ),
        endpointId: sql<null>`NULL`.as("endpoint_id"),
        datasetId: sql<string | null>`${fact.followUp?.datasetId ?? null}`.as(
          "dataset_id",
        ),
        shipment: sql<number | null>`${fact.followUp?.shipment ?? null}`.as(
          "shipment",
        ),
        message: sql<string | null>`${fact.followUp?.message ?? null}`.as(
          "message",
        ),
        relayedAt: sql<null>`NULL`.as("relayed_at"),
      })
      .from(documents)
      .where(
        and(
          eq(documents.uuid, fact.documentUuid),
          ne(documents.environment, "demo"),
          condition,
        ),
      ),
  );
