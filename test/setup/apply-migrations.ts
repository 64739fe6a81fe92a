import { applyD1Migrations, env } from "cloudflare:test";

// Runs before every test file; applying is idempotent, so repeated runs in one
// isolated storage are harmless.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
