// `npm start`: the service on local D1, R2 and Durable Objects. Generates
// .dev.vars on first start (and adds a keyring an older one lacks), checks
// the configuration (wrangler.toml's vars, .dev.vars, and any var set in the
// environment, which overrides both, as EFTI_GATE_CREDENTIAL set there
// overrides .dev.vars' for the API Worker), migrates every shard and puts the
// fallback fonts in one local process (scripts/lib/local-state.ts), then runs
// both Workers with one `wrangler dev` on one origin: the edge Worker in front
// (the QR links, the pages), the API Worker behind its service binding, on the
// same state. Once they answer, through the operations API of the running
// API Worker, it moves the rows of a state made before sharding to their
// shards, makes sure a development key exists, and prints it; then runs the
// API Worker's cron on its schedule (scripts/lib/local-cron.ts).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, readConfig } from "../src/config";
import { configWithVars } from "./lib/dev-config";
import { ensureDevVars, localSupportSecret, readDevVars } from "./lib/dev-vars";
import { readLocalConfig } from "./lib/local-config";
import { minutesBetweenRuns, runEvery } from "./lib/local-cron";
import { prepareLocalState } from "./lib/local-state";
import { type OpsClient, opsClient } from "./lib/ops-client";
import { noteRunningService } from "./lib/running-service";
import { API_CONFIG, EDGE_CONFIG } from "./lib/workers";

const DEFAULT_STATE = ".wrangler/state";
const DEV_ORGANIZATION = "Development";

interface DevCredential {
  key: string;
  credential_id: string;
  organization_id: string;
}

// Secrets this process's environment may give the API Worker over .dev.vars:
// the eFTI gate's credential and headers, which go with EFTI_GATE_URL (a stub
// gate's).
const SECRET_OVERRIDES = ["EFTI_GATE_CREDENTIAL", "EFTI_GATE_HEADERS"];

/**
 * The vars `wrangler dev` will give both Workers, checked as the Workers
 * check them; `overrides` are the ones this process's environment sets,
 * `secrets` the secrets of SECRET_OVERRIDES it sets (the API Worker's only).
 */
async function checkedVars(): Promise<{
  overrides: Record<string, string>;
  secrets: Record<string, string>;
}> {
  const declared = readLocalConfig(API_CONFIG).vars;
  const fromEnvironment = (names: readonly string[]) =>
    Object.fromEntries(
      names.flatMap((name) => {
        const value = process.env[name];
        return value === undefined ? [] : [[name, value]];
      }),
    ) as Record<string, string>;
  const overrides = fromEnvironment(Object.keys(declared));
  const secrets = fromEnvironment(SECRET_OVERRIDES);
  readConfig({
    ...declared,
    ...(await readDevVars()),
    ...overrides,
    ...secrets,
  });
  return { overrides, secrets };
}

/** The development key, kept beside the local database so that both go together. */
async function ensureDevCredential(
  ops: OpsClient,
  stateDir: string,
): Promise<DevCredential> {
  const file = join(stateDir, "dev-credential.json");
  if (existsSync(file)) {
    const saved = JSON.parse(await readFile(file, "utf8")) as DevCredential;
    const listed = (await ops.listKeys()).find(
      (row) => row.credential_id === saved.credential_id,
    );
    if (listed?.revoked_at === null) return saved;
  }
  const issued = await ops.issueKey({
    organization: DEV_ORGANIZATION,
    environment: "test",
    allowed_ips: [],
  });
  await mkdir(stateDir, { recursive: true });
  await writeFile(file, JSON.stringify(issued), { mode: 0o600 });
  return issued;
}

/** Resolves once `origin` answers, however it answers: wrangler dev is up. */
async function answering(origin: string): Promise<void> {
  for (;;) {
    try {
      const answer = await fetch(origin);
      await answer.body?.cancel();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** What wrangler's "types might be out of date" warning means here. */
function explainWarnings(): void {
  console.error(
    "npm start: wrangler's \"types might be out of date\" below is about the edge Worker (wrangler.edge.toml), whose bindings differ from the API Worker's that worker-configuration.d.ts types (`npm run types`): nothing to do.",
  );
}

/**
 * The API Worker's crons run through the operations API on their schedule
 * (scripts/lib/local-cron.ts): the safety nets of docs/failures.md.
 */
function startLocalCron(ops: OpsClient): void {
  for (const cron of readLocalConfig(API_CONFIG).crons) {
    const minutes = minutesBetweenRuns(cron);
    if (minutes === null) {
      console.error(
        `npm start: the cron "${cron}" does not run locally (only "every N minutes" crons do): POST /ops/v1/scheduled-work runs its work by hand.`,
      );
      continue;
    }
    console.error(
      `npm start: the API Worker's cron (${cron}) runs here every ${minutes} minutes through POST /ops/v1/scheduled-work, since wrangler dev runs no cron.`,
    );
    runEvery(minutes, ops.runScheduledWork, (error) =>
      console.error(`npm start: the cron's run failed: ${String(error)}`),
    );
  }
}

function reportUpgrade(moved: Record<string, number>) {
  if (Object.values(moved).every((count) => count === 0)) return;
  console.error(
    `Moved rows of the single database to their shards: ${JSON.stringify(moved)}.`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { "persist-to": { type: "string" } },
  });
  const stateDir = values["persist-to"] ?? DEFAULT_STATE;
  const port = process.env.PORT ?? "8787";

  await ensureDevVars();
  let overrides: Record<string, string>;
  let secrets: Record<string, string>;
  try {
    ({ overrides, secrets } = await checkedVars());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`npm start: ${error.message}`);
    process.exit(1);
  }
  await prepareLocalState(stateDir);

  explainWarnings();
  const api = await configWithVars(API_CONFIG, { ...overrides, ...secrets });
  const wrangler = spawn(
    "wrangler",
    [
      "dev",
      // The first config is the one served on the port.
      "--config",
      EDGE_CONFIG,
      "--config",
      api.path,
      "--port",
      port,
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
      ...Object.entries(overrides).flatMap(([name, value]) => [
        "--var",
        `${name}:${value}`,
      ]),
    ],
    {
      stdio: "inherit",
      // Local runs need nothing from Cloudflare's network.
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
  // The key tool and the shard tool then work through this service.
  const forget = await noteRunningService(stateDir, Number(port));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => wrangler.kill(signal));
  }
  wrangler.on("exit", async (code) => {
    await Promise.all([api.remove(), forget()]);
    process.exit(code ?? 0);
  });

  const origin = `http://127.0.0.1:${port}`;
  let credential: DevCredential;
  try {
    await answering(origin);
    const ops = opsClient({ url: origin, secret: await localSupportSecret() });
    reportUpgrade(await ops.upgradeShards());
    credential = await ensureDevCredential(ops, stateDir);
    startLocalCron(ops);
  } catch (error) {
    // No service without its key: wrangler stops, and with it this process.
    console.error(`npm start: ${String(error)}`);
    wrangler.kill("SIGTERM");
    return;
  }
  console.log(
    [
      "",
      `Development API key (organization "${DEV_ORGANIZATION}", test environment):`,
      `  ${credential.key}`,
      `Try: curl -H "Authorization: Bearer ${credential.key}" http://localhost:${port}/api/v1/documents`,
      "",
    ].join("\n"),
  );
}

await main();
