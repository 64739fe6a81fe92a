// The shards DB_0 … DB_{S-1} as wrangler.toml declares them (docs/scale.md):
// the top level for local runs and tests, [env.production] when deploying.
// Their count S is the number of those bindings, so wrangler.toml is the only
// place that says it.
import { unstable_readConfig } from "wrangler";
import { applyMigrations, configEnvironment, type DatabaseTarget } from "./d1";

/** The shard of the organizations' master rows and of what the demo holds (bucket 0). */
export const DIRECTORY_SHARD = "DB_0";

const shardBinding = (shard: number): string => `DB_${shard}`;

/**
 * The shard bindings of a wrangler.toml environment (the top level when
 * `environment` is undefined), in order; fails unless they are exactly
 * DB_0 … DB_{S-1}, since a gap would move buckets between shards.
 */
export function shardBindings(environment?: string): string[] {
  // Typed here: wrangler's declaration of its config type does not resolve.
  const bindings: string[] = unstable_readConfig(
    { config: "wrangler.toml", ...(environment ? { env: environment } : {}) },
    { hideWarnings: true },
  ).d1_databases.map((database: { binding: string }) => database.binding);
  // Wrangler refuses two databases with one binding name.
  const expected = bindings.map((_, shard) => shardBinding(shard));
  if (
    bindings.length === 0 ||
    expected.some((binding) => !bindings.includes(binding))
  ) {
    throw new Error(
      `wrangler.toml${environment ? ` [env.${environment}]` : ""} must declare the D1 shards DB_0 … DB_{S-1}, and only them; it declares ${bindings.join(", ") || "none"}`,
    );
  }
  return expected;
}

/** The shard bindings of the databases a target reaches. */
export const targetShards = (target: DatabaseTarget): string[] =>
  shardBindings(configEnvironment(target));

/** Applies the pending migrations to every shard, one after the other. */
export async function migrateShards(target: DatabaseTarget): Promise<void> {
  for (const binding of targetShards(target)) {
    await applyMigrations(target, binding);
  }
}
