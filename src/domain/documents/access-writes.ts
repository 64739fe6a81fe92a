// A document's accesses: its QR link opened (qr-download.ts), or an eFTI
// gate's read of its data (efti-gate.ts), alike. Later accesses are written
// (audit event, event, and so its message and POSTs) at most once this long
// after the last one written: scans repeated by an inspector, by anyone
// holding the paper, or a gate's reads cost no more than that. Only the
// first access is a rule's fact (it blocks deletion), and it is always
// written. The access's own batch decides (db/document-accesses.ts); what
// is here only spares it a call that would write nothing.
import { type AccessWay, recordAccess } from "../../db/document-accesses";
import { notFound } from "../../errors";
import { announceEvents } from "../events/announce";
import type { Services } from "../services";
import { writeDocument } from "./addressing";

const LATER_ACCESS_EVERY_MS = 60_000;

/** By when the last access written must be for a later one at `now` to be written. */
export const lastWrittenBy = (now: number): number =>
  now - LATER_ACCESS_EVERY_MS;

/** Whether an access at `now` would write nothing, the last one written being `last`. */
export const isWrittenTooRecently = (
  last: number | null | undefined,
  now: number,
): boolean => last !== null && last !== undefined && last > lastWrittenBy(now);

// Past the deletion window a QR link reads no row (qr-download.ts), so this
// Worker instance remembers when each document's last access was written,
// as D1 answered: a burst of reloads at a roadside is one call a minute.
// Documents remembered; the oldest is forgotten first.
const REMEMBERED = 10_000;

const lastWritten = new Map<string, number>();

/** When this instance last saw a document's access written, if it did. */
export const lastWrittenSeen = (uuid: string): number | undefined =>
  lastWritten.get(uuid);

/** Remembers when a document's last access was written, as D1 answered. */
export function rememberLastWritten(uuid: string, at: number | null): void {
  lastWritten.delete(uuid);
  if (at === null) return;
  lastWritten.set(uuid, at);
  if (lastWritten.size > REMEMBERED) {
    const oldest = lastWritten.keys().next();
    if (!oldest.done) lastWritten.delete(oldest.value);
  }
}

/**
 * Records an access unless one was written within the minute before it
 * (its event announced once committed, unless `announce` is false): when
 * the last one written was, or undefined when the document was deleted.
 */
export async function writeAccess(
  services: Services,
  uuid: string,
  at: number,
  way: AccessWay,
  announce = true,
): Promise<{ lastQrAccessAt: number | null } | undefined> {
  let access: Awaited<ReturnType<typeof recordAccess>>;
  await writeDocument(services, uuid, async (db) => {
    access = await recordAccess(db, uuid, {
      at,
      requestId: services.requestId,
      lastWrittenBy: lastWrittenBy(at),
      ...way,
    });
    return access !== undefined;
  });
  if (access?.recorded && announce) announceEvents(services, [uuid]);
  return access;
}

/**
 * An access of a document read from D1 as `row` at `now`: the first one is
 * written before the answer, so that a deletion after it is refused (the
 * access's batch and the deletion's are each conditional on the other's
 * mark), 404 when the deletion won; a later one, which blocks nothing more,
 * after the answer, and not at all when the read shows one written within
 * the minute.
 */
export async function accessRead(
  services: Services,
  row: {
    uuid: string;
    firstQrAccessAt: number | null;
    lastQrAccessAt: number | null;
  },
  now: number,
  way: AccessWay,
  announce = true,
): Promise<void> {
  if (row.firstQrAccessAt === null) {
    if (!(await writeAccess(services, row.uuid, now, way, announce))) {
      throw notFound();
    }
  } else if (!isWrittenTooRecently(row.lastQrAccessAt, now)) {
    services.background(
      `${way.via}_access`,
      writeAccess(services, row.uuid, now, way, announce),
    );
  }
}
