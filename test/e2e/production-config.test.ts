import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import {
  SINGLE_DATABASE_STATE,
  WRANGLER_FILE,
} from "../../fixtures/single-database-state";
import { PRODUCTION_ENVIRONMENT } from "../../scripts/lib/d1";
import { productionBaseUrl } from "../../scripts/lib/production-config";
import { shardBindings } from "../../scripts/lib/shards";

// wrangler.toml's two configurations: the top level (npm start, the tests)
// and [env.production] (npm run deploy), which wrangler does not fill from
// the top level, so every binding is written twice.
const run = promisify(execFile);

interface D1Entry {
  binding: string;
  database_name: string;
  database_id: string;
  migrations_dir: string;
}

type Vars = Record<string, unknown>;

const readConfig = (config: string, env?: string) =>
  unstable_readConfig(
    { config, ...(env ? { env } : {}) },
    { hideWarnings: true },
  );
const local = readConfig("wrangler.toml");
const production = readConfig("wrangler.toml", PRODUCTION_ENVIRONMENT);

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), "deca-config-"));
});
afterAll(() => rm(tempDir, { recursive: true, force: true }));

describe("wrangler.toml", () => {
  it("has 4 shards locally and 32 in production, DB_0 being the former database", () => {
    expect(shardBindings()).toHaveLength(4);
    expect(shardBindings(PRODUCTION_ENVIRONMENT)).toHaveLength(32);
    for (const databases of [
      local.d1_databases,
      production.d1_databases,
    ] as D1Entry[][]) {
      expect(databases.map((database) => database.database_name)).toEqual(
        databases.map((_, shard) => (shard === 0 ? "deca" : `deca-${shard}`)),
      );
      expect(new Set(databases.map((d) => d.database_id)).size).toBe(
        databases.length,
      );
      for (const database of databases) {
        expect(database.migrations_dir).toBe("migrations");
      }
    }
  });

  it("keeps the former database's name and id for DB_0, so a local state keeps its file", async () => {
    // The wrangler.toml of the last single-database commit, kept with its state.
    const old = join(SINGLE_DATABASE_STATE, WRANGLER_FILE);
    const [former] = readConfig(old).d1_databases as D1Entry[];
    const [directory] = local.d1_databases as D1Entry[];
    expect(former?.binding).toBe("DB");
    expect(directory).toEqual({ ...former, binding: "DB_0" });
  });

  it("gives production the same Worker, vars, buckets, Durable Objects and secrets", () => {
    // All but where it runs and the origin it prints.
    const shared = ({ BASE_URL: _, DEPLOYMENT: __, ...vars }: Vars) => vars;
    expect(shared(production.vars)).toEqual(shared(local.vars));
    for (const field of [
      "name",
      "r2_buckets",
      "durable_objects",
      "secrets",
      "triggers",
      "assets",
      "migrations",
    ]) {
      expect(production[field], field).toEqual(local[field]);
    }
  });

  it("marks production, where the Worker refuses to serve without an https BASE_URL", () => {
    expect(local.vars.DEPLOYMENT).toBe("local");
    expect(production.vars.DEPLOYMENT).toBe("production");
    const vars = (baseUrl: string) => ({
      ...production.vars,
      BASE_URL: baseUrl,
    });
    for (const baseUrl of ["", "http://deca.example"]) {
      expect(() => productionBaseUrl(vars(baseUrl))).toThrow(
        /BASE_URL must be the service's https:\/\/ origin in production/,
      );
    }
    expect(productionBaseUrl(vars("https://deca.example"))).toBe(
      "https://deca.example",
    );
  });

  it.each(["", "http://deca.example"])(
    "stops npm run deploy before any step when production's BASE_URL is %j",
    async (baseUrl) => {
      const dir = await mkdtemp(join(tempDir, "deploy-"));
      const toml = await readFile("wrangler.toml", "utf8");
      await writeFile(
        join(dir, "wrangler.toml"),
        toml.replace(/^BASE_URL = .*$/gm, `BASE_URL = "${baseUrl}"`),
      );
      const failed = await run(
        join(process.cwd(), "node_modules/.bin/tsx"),
        [join(process.cwd(), "scripts/deploy.ts")],
        { cwd: dir },
      ).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(
        /ConfigError: Invalid configuration: BASE_URL/,
      );
      expect(failed?.stderr).not.toMatch(/Migrating/);
    },
  );

  it("builds the production Worker with its 32 shards", async () => {
    const { stdout, stderr } = await run(
      "wrangler",
      [
        "deploy",
        "--env",
        PRODUCTION_ENVIRONMENT,
        "--dry-run",
        "--outdir",
        join(tempDir, "dist"),
      ],
      { env: { ...process.env, CI: "true" } },
    );
    expect(stderr).not.toMatch(/WARNING|ERROR/);
    for (const binding of shardBindings(PRODUCTION_ENVIRONMENT)) {
      expect(stdout).toMatch(new RegExp(`env\\.${binding} \\(deca`));
    }
  });
});
