// A document's later QR accesses are written (audit event, event, and so its
// message and POSTs) at most once this long after the last one written:
// scans repeated by an inspector, or by anyone holding the paper, cost no
// more than that. Only the first access is a rule's fact (it blocks
// deletion), and it is always written. The access's own batch decides
// (db/qr-accesses.ts); what is here only spares it a call that would write
// nothing.
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
