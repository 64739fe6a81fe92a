/** Runs work while holding a named lock, one holder at a time across the service. */
export interface Locks {
  withLock<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** The lock of one document, taken by deletions. */
export const documentLockName = (uuid: string): string => `document:${uuid}`;
