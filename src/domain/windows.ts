// The time windows of the contract (docs/api.md, Time windows).
const HOUR_MS = 60 * 60 * 1000;

/** How long a document can be read, and deleted, after its creation (docs/api.md). */
export const READ_WINDOW_HOURS = 24;
export const DELETE_WINDOW_HOURS = 2;

const READ_WINDOW_MS = READ_WINDOW_HOURS * HOUR_MS;
const DELETE_WINDOW_MS = DELETE_WINDOW_HOURS * HOUR_MS;

/** Reads, lists and retries see a document while `now < created_at + 24 h`. */
export const isWithinReadWindow = (createdAt: number, now: number): boolean =>
  now < createdAt + READ_WINDOW_MS;

/** Earliest creation time still inside the read window at `now`. */
export const readWindowStart = (now: number): number =>
  now - READ_WINDOW_MS + 1;

/** A document can be deleted while `now < created_at + 2 h`; exactly 2 h is too late. */
export const isWithinDeleteWindow = (createdAt: number, now: number): boolean =>
  now < createdAt + DELETE_WINDOW_MS;

/** Earliest creation time still inside the delete window at `now`. */
export const deleteWindowStart = (now: number): number =>
  now - DELETE_WINDOW_MS + 1;

// The archiver waits this long past the read window, so that a request that
// began inside the window still finds the body in D1 when it reads it.
const ARCHIVE_MARGIN_MS = HOUR_MS;

/** Documents created before this, at `now`, are past the read window and its margin: the archiver moves their body to R2. */
export const archiveCutoff = (now: number): number =>
  now - READ_WINDOW_MS - ARCHIVE_MARGIN_MS;

// A deletion writes "maybe deleted" into its PDF object, then commits in D1
// (at most 2 h after issue); a QR link that reads such an object asks D1
// (qr-download.ts). The margin covers a deletion request still between its
// window check and that write, and clocks that differ between Workers.
const DELETION_SETTLED_MARGIN_MS = HOUR_MS;

/**
 * Past this a document's deletion state can no longer change and its PDF
 * object's metadata tells it: a QR link needs no D1 (qr-download.ts).
 */
export const isDeletionSettled = (createdAt: number, now: number): boolean =>
  now >= createdAt + DELETE_WINDOW_MS + DELETION_SETTLED_MARGIN_MS;
