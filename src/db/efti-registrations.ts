import {
  and,
  asc,
  eq,
  exists,
  inArray,
  isNull,
  lt,
  type SQL,
  sql,
} from "drizzle-orm";
import { GATE_ENVIRONMENT } from "../schemas/environment";
import type { Database } from "./client";
import {
  documents,
  type EftiRegistrationRow,
  eftiRegistrations,
} from "./schema";

// The eFTI gate's registrations (docs/efti.md "Registration with the gate"):
// written in the batch of each issue, correction and deletion, in the
// document's shard; marked sent once the gate answered 2xx.

/** A new registration id, drawn by SQLite for each row of the batch that writes it. */
const newRegistrationId = sql<string>`'reg_' || lower(hex(randomblob(12)))`;

/**
 * The insert of one registration per dataset id of a document, taking effect
 * only if the document is there when the batch reaches it, is a live
 * document (the only ones gates see), and `condition` holds for it: written exactly when the fact
 * before it in the same batch took effect. One statement whatever the count
 * (the ids go as one JSON parameter).
 */
export const insertRegistrationsIf = (
  db: Database,
  registration: {
    documentUuid: string;
    datasetIds: readonly string[];
    at: number;
  },
  condition: SQL | undefined,
) =>
  db.insert(eftiRegistrations).select(
    // The fields in the table's column order, as insert-select requires.
    db
      .select({
        id: newRegistrationId.as("id"),
        datasetId: sql<string>`ids.value`.as("dataset_id"),
        documentUuid: sql<string>`${registration.documentUuid}`.as(
          "document_uuid",
        ),
        createdAt: sql<number>`${registration.at}`.as("created_at"),
        sentAt: sql<null>`NULL`.as("sent_at"),
      })
      .from(sql`json_each(${JSON.stringify(registration.datasetIds)}) AS ids`)
      .where(
        exists(
          db
            .select({ one: sql`1` })
            .from(documents)
            .where(
              and(
                sql`${documents.uuid} = ${registration.documentUuid}`,
                eq(documents.environment, GATE_ENVIRONMENT),
                condition,
              ),
            ),
        ),
      ),
  );

/** These documents' registrations not yet sent, in this shard. */
export const findUnsentRegistrations = (
  db: Database,
  documentUuids: readonly string[],
): Promise<EftiRegistrationRow[]> =>
  db
    .select()
    .from(eftiRegistrations)
    .where(
      and(
        inArray(eftiRegistrations.documentUuid, [...documentUuids]),
        isNull(eftiRegistrations.sentAt),
      ),
    );

/**
 * The documents of up to `limit` registrations written before `before` and
 * still not sent, oldest first (a document once per registration).
 */
export const findStaleUnsentDocuments = async (
  db: Database,
  before: number,
  limit: number,
): Promise<string[]> =>
  (
    await db
      .select({ documentUuid: eftiRegistrations.documentUuid })
      .from(eftiRegistrations)
      .where(
        and(
          isNull(eftiRegistrations.sentAt),
          lt(eftiRegistrations.createdAt, before),
        ),
      )
      .orderBy(asc(eftiRegistrations.createdAt))
      .limit(limit)
  ).map(({ documentUuid }) => documentUuid);

/** Marks these registrations sent (the gate answered 2xx to a body read after them). */
export const markRegistrationsSent = async (
  db: Database,
  ids: readonly string[],
  now: number,
): Promise<void> => {
  await db
    .update(eftiRegistrations)
    .set({ sentAt: now })
    .where(
      and(
        inArray(eftiRegistrations.id, [...ids]),
        isNull(eftiRegistrations.sentAt),
      ),
    );
};
