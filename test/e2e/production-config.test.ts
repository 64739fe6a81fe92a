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
import { SUPPORT_SECRET_VARIABLE } from "../../scripts/lib/ops-target";
import {
  checkEdgeDatabases,
  checkEdgeVars,
  productionBaseUrl,
} from "../../scripts/lib/production-config";
import { shardBindings } from "../../scripts/lib/shards";
import { API_CONFIG, EDGE_CONFIG } from "../../scripts/lib/workers";

// The two Workers' configs (wrangler.toml the API's, wrangler.edge.toml the
// edge's), each with two configurations: the top level (npm start, the
// tests) and [env.production] (npm run deploy), which wrangler does not fill
// from the top level, so every binding is written twice, and what both
// Workers bind is written in both files.
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
const local = readConfig(API_CONFIG);
const production = readConfig(API_CONFIG, PRODUCTION_ENVIRONMENT);
const edgeLocal = readConfig(EDGE_CONFIG);
const edgeProduction = readConfig(EDGE_CONFIG, PRODUCTION_ENVIRONMENT);

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
      "triggers",
      "assets",
      "migrations",
    ]) {
      expect(production[field], field).toEqual(local[field]);
    }
    // The eFTI gates' keyring: generated locally by npm start, optional in
    // production, where /efti/v0 is off until a gate is connected (docs/efti.md).
    expect(production.secrets).toEqual({
      required: local.secrets?.required?.filter(
        (name: string) => name !== "GATE_KEYRING",
      ),
    });
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

  it("serves neither production Worker on workers.dev nor on preview URLs, where the zone's mTLS and WAF rules do not run", () => {
    for (const config of [production, edgeProduction]) {
      expect(config.workers_dev).toBe(false);
      expect(config.preview_urls).toBe(false);
    }
    // The API Worker is reached only through the edge Worker's service binding.
    expect(production.routes ?? []).toEqual([]);
  });

  it("places the API Worker beside its data in production, and only it", () => {
    expect(production.placement).toEqual({ mode: "smart" });
    expect(local.placement).toBeUndefined();
    expect(edgeProduction.placement).toBeUndefined();
  });
});

describe("wrangler.edge.toml", () => {
  const bindings = (config: typeof local) => ({
    d1_databases: config.d1_databases,
    r2_buckets: config.r2_buckets,
    vars: config.vars,
  });

  it("binds the API Worker's shards, buckets and vars, locally and in production", () => {
    expect(bindings(edgeLocal)).toEqual(bindings(local));
    expect(bindings(edgeProduction)).toEqual(bindings(production));
  });

  it("stops npm run deploy when its production vars are not the API Worker's", () => {
    expect(() => checkEdgeVars()).not.toThrow();
    const vars = { ...production.vars, BASE_URL: "https://deca.example" };
    expect(() => checkEdgeVars(vars, edgeProduction.vars)).toThrow(
      /wrangler.edge.toml's \[env.production.vars\] must be wrangler.toml's \(differing: BASE_URL\)/,
    );
  });

  it("stops npm run deploy when its production D1 shards are not the API Worker's", () => {
    expect(() => checkEdgeDatabases()).not.toThrow();
    const databases = production.d1_databases as D1Entry[];
    const added = [
      ...databases,
      { ...databases[1], binding: "DB_32", database_id: "new-id" },
    ] as D1Entry[];
    expect(() => checkEdgeDatabases(added, databases)).toThrow(
      /wrangler.edge.toml's \[env.production\] d1_databases must be wrangler.toml's, the same bindings, database names and ids \(differing: DB_32\)/,
    );
    const otherId = databases.map((database) =>
      database.binding === "DB_7"
        ? { ...database, database_id: "another-id" }
        : database,
    );
    expect(() => checkEdgeDatabases(databases, otherId)).toThrow(
      /\(differing: DB_7\)/,
    );
  });

  it("makes npm run deploy refuse, before any step, an API Worker given more shards than the edge Worker", async () => {
    const dir = await mkdtemp(join(tempDir, "deploy-"));
    const https = (toml: string) =>
      toml.replace(/^BASE_URL = .*$/gm, 'BASE_URL = "https://deca.example"');
    const toml = https(await readFile("wrangler.toml", "utf8"));
    const shard31 = toml.match(/^ {2}\{ binding = "DB_31".*$/m)?.[0] ?? "";
    expect(shard31).not.toBe("");
    await writeFile(
      join(dir, "wrangler.toml"),
      toml.replace(shard31, `${shard31}\n${shard31.replaceAll("31", "32")}`),
    );
    await writeFile(
      join(dir, "wrangler.edge.toml"),
      https(await readFile("wrangler.edge.toml", "utf8")),
    );
    const { [SUPPORT_SECRET_VARIABLE]: _, ...env } = process.env;
    const failed = await run(
      join(process.cwd(), "node_modules/.bin/tsx"),
      [join(process.cwd(), "scripts/deploy.ts")],
      { cwd: dir, env },
    ).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(
      /ConfigError: Invalid configuration: wrangler.edge.toml's \[env.production\] d1_databases .* \(differing: DB_32\)/,
    );
    expect(failed?.stderr).not.toMatch(/Migrating|Deploying/);
  });

  it("reaches the API Worker by its name, and serves the assets it no longer has", () => {
    for (const [edge, api] of [
      [edgeLocal, local],
      [edgeProduction, production],
    ]) {
      expect(edge.name).not.toBe(api.name);
      expect(edge.services).toEqual([{ binding: "API", service: api.name }]);
      expect(edge.durable_objects.bindings).toEqual([
        {
          name: "RATE_LIMITER",
          class_name: "RateLimiter",
          script_name: api.name,
        },
      ]);
      expect(edge.secrets).toEqual({ required: ["PDF_KEYRING", "QR_KEYRING"] });
      // The support secret, the webhook, gates' and seals' keyrings are the
      // API Worker's alone; the gates' is required only locally.
      expect(api.secrets).toEqual({
        required: [
          "PDF_KEYRING",
          "QR_KEYRING",
          "SUPPORT_KEYRING",
          "WEBHOOK_KEYRING",
          ...(api === local ? ["GATE_KEYRING"] : []),
          "SEAL_KEYRING",
        ],
      });
      expect(edge.assets?.binding).toBe("ASSETS");
      expect(api.assets).toBeUndefined();
      expect(edge.triggers.crons ?? []).toEqual([]);
    }
    for (const field of ["name", "assets", "compatibility_date"]) {
      expect(edgeProduction[field], field).toEqual(edgeLocal[field]);
    }
    expect(edgeLocal.compatibility_date).toBe(local.compatibility_date);
  });
});

describe("observability", () => {
  it("keeps every log line of both production Workers and traces a sample of their requests", () => {
    for (const config of [production, edgeProduction]) {
      expect(config.observability).toMatchObject({
        enabled: true,
        logs: { enabled: true, head_sampling_rate: 1, invocation_logs: true },
        traces: {
          enabled: true,
          head_sampling_rate: expect.toSatisfy(
            (rate: number) => rate > 0 && rate <= 1,
          ),
        },
      });
    }
    expect(edgeProduction.observability).toEqual(production.observability);
  });
});

describe("wrangler deploy --dry-run", () => {
  /** Builds a production Worker; its bundle's inputs from esbuild's metafile. */
  async function build(
    config: string,
  ): Promise<{ stdout: string; inputs: string[] }> {
    const outdir = await mkdtemp(join(tempDir, "dist-"));
    const { stdout, stderr } = await run(
      "wrangler",
      [
        "deploy",
        "--config",
        config,
        "--env",
        PRODUCTION_ENVIRONMENT,
        "--dry-run",
        "--outdir",
        outdir,
        "--metafile",
        join(outdir, "meta.json"),
      ],
      { env: { ...process.env, CI: "true" } },
    );
    expect(stderr).not.toMatch(/WARNING|ERROR/);
    const meta = JSON.parse(await readFile(join(outdir, "meta.json"), "utf8"));
    return { stdout, inputs: Object.keys(meta.inputs) };
  }

  /** What only rendering a PDF needs: the renderer, its fonts, pdf-lib and fontkit. */
  const renders = (input: string) =>
    /^src\/pdf\/|\.ttf$|node_modules\/@cantoo\//.test(input);

  it("builds both production Workers with their 32 shards, the renderer in the API Worker's bundle only", async () => {
    const [api, edge] = await Promise.all([
      build(API_CONFIG),
      build(EDGE_CONFIG),
    ]);
    for (const { stdout } of [api, edge]) {
      for (const binding of shardBindings(PRODUCTION_ENVIRONMENT)) {
        expect(stdout).toMatch(new RegExp(`env\\.${binding} \\(deca`));
      }
    }
    expect(edge.stdout).toMatch(/env\.API \(deca-service\)/);
    expect(api.inputs.filter(renders)).toContain("src/pdf/render-document.ts");
    expect(edge.inputs.filter(renders)).toEqual([]);
    expect(edge.inputs).toContain("src/http/operations/document-by-qr.ts");
  });
});
