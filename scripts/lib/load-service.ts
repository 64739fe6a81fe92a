// A load run against a fresh local service (`npm start` on a temporary state
// folder and a free loopback port), with a key whose rate limit the load
// does not reach; the service's log is searched for every secret handed out.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keys, startService } from "./commands";
import { executeSql } from "./d1";
import { type LoadReport, runLoad } from "./load";
import { shardBindings } from "./shards";

export interface ServiceLoadReport extends Omit<LoadReport, "qrSecrets"> {
  /** Request log lines the service printed, all searched for secrets. */
  loggedRequests: number;
  /** Log lines of the service holding the key or a QR secret. */
  secretsInLog: number;
  /** Document rows in each shard, DB_0 first: a run spreads over all of them. */
  documentsPerShard: number[];
}

/** The document rows of each shard of a local state. */
async function documentsPerShard(persistTo: string): Promise<number[]> {
  return Promise.all(
    shardBindings().map(async (binding) => {
      const [rows] = await executeSql(
        { remote: false, persistTo },
        binding,
        "SELECT count(*) AS n FROM documents;",
      );
      return Number(rows?.[0]?.n ?? 0);
    }),
  );
}

/**
 * A load run against `npm start` on the state folder `stateDir`, stopped
 * after; the state stays, with the key the run used.
 */
export async function loadLocalService(
  stateDir: string,
  options: { creates: number; clients: number; maxMs: number },
): Promise<{ report: ServiceLoadReport; key: string }> {
  const service = await startService(stateDir);
  const { port } = service;
  try {
    const created = await keys(
      stateDir,
      "create",
      "--org",
      "Load",
      "--env",
      "test",
      "--rate-limit",
      "1000000",
    );
    if (created.code !== 0) throw new Error(`keys create: ${created.stderr}`);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const { qrSecrets, ...report } = await runLoad({
      ...options,
      baseUrl: `http://127.0.0.1:${port}`,
      key,
    });
    const secrets = [key, ...qrSecrets];
    const perShard = await documentsPerShard(stateDir);
    const lines = service.output().split("\n");
    return {
      key,
      report: {
        ...report,
        loggedRequests: lines.filter((line) => line.includes('"request_id"'))
          .length,
        secretsInLog: lines.filter((line) =>
          secrets.some((secret) => line.includes(secret)),
        ).length,
        documentsPerShard: perShard,
      },
    };
  } finally {
    await service.stop();
  }
}

/** `loadLocalService` on a temporary state folder, removed after. */
export async function loadFreshService(options: {
  creates: number;
  clients: number;
  maxMs: number;
}): Promise<ServiceLoadReport> {
  const stateDir = await mkdtemp(join(tmpdir(), "deca-load-"));
  try {
    return (await loadLocalService(stateDir, options)).report;
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}
