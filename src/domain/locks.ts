/** Runs work while holding a named lock, one holder at a time across the service. */
export interface Locks {
  withLock<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** The lock of one document, taken by corrections and deletions. */
export const documentLockName = (uuid: string): string => `document:${uuid}`;

/** The lock of one demo session, taken to count its documents exactly. */
export const demoSessionLockName = (credentialId: string): string =>
  `demo-session:${credentialId}`;
