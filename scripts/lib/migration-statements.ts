// The statements of a migration file of migrations/: drizzle-kit writes them
// separated by `--> statement-breakpoint` lines, and a hand-written one keeps
// that form (docs/operations.md). wrangler's SQL splitter finds the same statements
// in every file (test/e2e/local-config.test.ts), but comes only with its JS
// API, whose import took 1.3 s of every `npm start`.

const BREAKPOINT = "--> statement-breakpoint";

/** The statements of `sql`, in order, each without its closing semicolon. */
export const migrationStatements = (sql: string): string[] =>
  sql
    .split(BREAKPOINT)
    .map((statement) => statement.trim().replace(/;$/, ""))
    .filter((statement) => statement.length > 0);
