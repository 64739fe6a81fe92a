import { applyD1Migrations, env } from "cloudflare:test";
import { shardBindings } from "../../src/db/client";

// Runs before every test file, on every shard; applying is idempotent, so
// repeated runs in one isolated storage are harmless.
for (const shard of shardBindings(env)) {
  await applyD1Migrations(shard, env.TEST_MIGRATIONS);
}
