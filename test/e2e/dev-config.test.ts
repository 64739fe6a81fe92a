import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { configWithVars } from "../../scripts/lib/dev-config";
import { API_CONFIG } from "../../scripts/lib/workers";

// npm start's way to give the API Worker, the second of its `wrangler dev`,
// the vars its environment overrides (`--var` reaches the first only).
const read = (config: string) =>
  unstable_readConfig({ config }, { hideWarnings: true });

describe("the API Worker's config for npm start", () => {
  it("is wrangler.toml itself when the environment overrides nothing", async () => {
    const config = await configWithVars(API_CONFIG, {});
    expect(config.path).toBe(API_CONFIG);
    await config.remove();
    expect(existsSync(API_CONFIG)).toBe(true);
  });

  it("is a copy beside it with the overridden vars, the rest the same, removed after", async () => {
    const overrides = { DEMO_ENABLED: "false", BASE_URL: 'http://a"b' };
    const config = await configWithVars(API_CONFIG, overrides);
    try {
      const { vars, ...copy } = read(config.path);
      const { vars: declared, ...original } = read(API_CONFIG);
      expect(vars).toEqual({ ...declared, ...overrides });
      for (const field of ["name", "main", "d1_databases", "durable_objects"]) {
        expect(copy[field], field).toEqual(original[field]);
      }
    } finally {
      await config.remove();
    }
    expect(existsSync(config.path)).toBe(false);
  });
});
