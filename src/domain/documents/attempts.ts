// How long an attempt at issuing a version may live. Its writes can be
// answered ambiguously (applied, then the answer lost), so what it leaves
// behind is removed only once no attempt can still commit: an attempt
// commits only within ATTEMPT_COMMIT_MS of its plan (past it, it gives up
// before committing), and its leftovers (the note of its PDF, the PDF, a
// correction's reservation) count as abandoned only far later.

/** An attempt commits within this time of its plan, or not at all. */
export const ATTEMPT_COMMIT_MS = 5 * 60 * 1000;

/** A leftover this old belongs to an attempt that can no longer commit. */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;

/** Whether a leftover written at `writtenAt` is abandoned at `now`. */
export const isAbandoned = (writtenAt: number, now: number): boolean =>
  now - writtenAt >= ORPHAN_AGE_MS;
