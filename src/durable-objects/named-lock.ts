import { DurableObject } from "cloudflare:workers";

// A holder that never releases (its Worker died) loses the lock after this.
const LEASE_MS = 30_000;

/**
 * One named lock, one object per name. Callers queue on `acquire` until the
 * holder releases or its lease runs out. No operation takes one: every
 * commit checks its own preconditions in its batch (docs/failures.md). The
 * class stays while the `LOCKS` binding and the Durable Object migrations of
 * wrangler.toml name it.
 */
export class NamedLock extends DurableObject<Env> {
  #holder: { token: string; expiresAt: number } | null = null;
  #waiters: (() => void)[] = [];

  /** A token for the lock, or null if it could not be had within `waitMs`. */
  async acquire(waitMs: number): Promise<string | null> {
    const deadline = Date.now() + waitMs;
    while (this.#holder && this.#holder.expiresAt > Date.now()) {
      const remaining = Math.min(deadline, this.#holder.expiresAt) - Date.now();
      if (Date.now() >= deadline) return null;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, remaining);
      });
    }
    const token = crypto.randomUUID();
    this.#holder = { token, expiresAt: Date.now() + LEASE_MS };
    return token;
  }

  release(token: string): void {
    if (this.#holder?.token !== token) return;
    this.#holder = null;
    // Every waiter looks again; the first to run takes the lock.
    for (const wake of this.#waiters.splice(0)) wake();
  }
}
