import type { Locks } from "../domain/locks";
import { serviceUnavailable } from "../errors";
import type { NamedLock } from "./named-lock";

// Longer than any issuing step takes; a caller waiting longer gets a 503.
const WAIT_MS = 15_000;

/** Locks held in NamedLock Durable Objects, one object per lock name. */
export function durableObjectLocks(
  namespace: DurableObjectNamespace<NamedLock>,
): Locks {
  return {
    async withLock(name, work) {
      const lock = namespace.get(namespace.idFromName(name));
      let token: string | null;
      try {
        token = await lock.acquire(WAIT_MS);
      } catch (error) {
        throw serviceUnavailable("lock", error);
      }
      if (token === null) throw serviceUnavailable("lock");
      try {
        return await work();
      } finally {
        await lock.release(token).catch(() => undefined);
      }
    },
  };
}
