import { defineConfig } from "drizzle-kit";

// Generates SQL migrations from src/db/schema.ts; review each one by hand
// before committing (table rebuilds can cascade-delete rows on D1).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.ts",
  out: "./migrations",
});
