// Which Worker the operator's tools talk to: a deployment (`--url
// https://…`, the secret from DECA_SUPPORT_SECRET), a running `npm start`
// (`--url http://127.0.0.1:8787`, the secret from .dev.vars), or, without
// --url, the local state itself, started or not: the Worker run for the call
// by wrangler on that state folder, or the `npm start` that serves it when
// one runs. One client for all three.
import { localSupportSecret } from "./dev-vars";
import { startLocalWorker } from "./local-worker";
import { type OpsClient, opsClient } from "./ops-client";
import { runningServiceOrigin } from "./running-service";

export const SUPPORT_SECRET_VARIABLE = "DECA_SUPPORT_SECRET";

const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** The support secret for `url`: the environment's, else .dev.vars' for a local URL. */
async function supportSecretFor(url: URL): Promise<string> {
  const fromEnvironment = process.env[SUPPORT_SECRET_VARIABLE];
  if (fromEnvironment) return fromEnvironment;
  if (LOCAL_HOSTS.includes(url.hostname)) return localSupportSecret();
  throw new Error(
    `set ${SUPPORT_SECRET_VARIABLE} to the support secret of ${url.origin} (docs/operations.md)`,
  );
}

/**
 * Runs `work` with a client of the Worker at `url`, or, without one, of the
 * `npm start` serving the state in `persistTo` (.wrangler/state), or else of
 * a Worker run locally on that state for the call.
 */
export async function withOps<T>(
  target: { url?: string | undefined; persistTo?: string | undefined },
  work: (ops: OpsClient) => Promise<T>,
): Promise<T> {
  if (target.url) {
    const url = new URL(target.url);
    return work(
      opsClient({ url: url.origin, secret: await supportSecretFor(url) }),
    );
  }
  const secret = await localSupportSecret();
  const persistTo = target.persistTo ?? ".wrangler/state";
  // The running service's answer is the state's: no second Worker on its files.
  const running = await runningServiceOrigin(persistTo);
  if (running) return work(opsClient({ url: running, secret }));
  const worker = await startLocalWorker("wrangler.toml", persistTo);
  try {
    return await work(opsClient({ url: worker.origin, secret }));
  } finally {
    await worker.stop();
  }
}
