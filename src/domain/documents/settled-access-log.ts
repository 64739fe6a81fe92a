// Once a document is settled (windows.ts) no rule depends on its QR
// accesses any more: they only feed its audit trail. Scans of one document
// repeated within a minute, in one Worker instance, make one record, so
// that a burst of reloads at a roadside is one write, not one per request.
const RECORD_EVERY_MS = 60_000;
// Documents one isolate remembers; the oldest is forgotten first.
const REMEMBERED = 10_000;

const lastRecorded = new Map<string, number>();

/** Whether this access to a settled document is to be recorded; remembers it if so. */
export function isSettledAccessToRecord(uuid: string, now: number): boolean {
  const last = lastRecorded.get(uuid);
  if (last !== undefined && now >= last && now - last < RECORD_EVERY_MS) {
    return false;
  }
  lastRecorded.delete(uuid);
  lastRecorded.set(uuid, now);
  if (lastRecorded.size > REMEMBERED) {
    const oldest = lastRecorded.keys().next();
    if (!oldest.done) lastRecorded.delete(oldest.value);
  }
  return true;
}
