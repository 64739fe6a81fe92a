import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { issueKeySql } from "../../scripts/lib/sql";
import { openDatabase } from "../../src/db/client";
import { findCredentialByKeyHash } from "../../src/db/credentials";
import { newCredential } from "../../src/domain/api-keys";
import { newId } from "../../src/domain/random";

// The key tool writes SQL text for `wrangler d1 execute`; here that text runs
// against the migrated D1 and is read back through src/db, as the Worker
// reads a key when it authenticates.

const db = openDatabase(env.DB_0);

/** The statements of a script, each ending with `;` at the end of a line. */
async function execute(script: string): Promise<void> {
  const statements = script
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
  await env.DB_0.batch(
    statements.map((statement) => env.DB_0.prepare(statement)),
  );
}

const issue = async (
  name: string,
  terms: { locale?: string; allowedIps?: string[]; rateLimit?: number } = {},
) => {
  const credential = await newCredential({
    organizationId: newId("org"),
    environment: "live",
    createdAt: 1_790_000_000_000,
    allowedIps: terms.allowedIps,
    rateLimitPerMinute: terms.rateLimit,
  });
  await execute(issueKeySql(credential.row, { name, locale: terms.locale }));
  return credential;
};

describe("the key tool's SQL", () => {
  it("stores the credential row exactly, in a new organization", async () => {
    const { row } = await issue("Transportes O'Brien; Hijos", {
      locale: "eu",
      allowedIps: ["203.0.113.7", "2001:db8::1"],
      rateLimit: 50,
    });
    expect(await findCredentialByKeyHash(db, row.keyHash)).toEqual({
      ...row,
      documentLocale: "eu",
    });
  });

  it("adds a key to an existing organization, setting its locale only when given", async () => {
    const first = await issue("Existing SL");
    const second = await issue("Existing SL");
    const read = (keyHash: string) => findCredentialByKeyHash(db, keyHash);
    expect(await read(second.row.keyHash)).toEqual({
      ...second.row,
      organizationId: first.row.organizationId,
      documentLocale: "es",
    });
    const third = await issue("Existing SL", { locale: "gl" });
    expect(await read(third.row.keyHash)).toMatchObject({
      organizationId: first.row.organizationId,
      documentLocale: "gl",
    });
  });

  it("names every column of the migrated credentials table", async () => {
    const { row } = await newCredential({
      organizationId: "org_x",
      environment: "test",
      createdAt: 0,
    });
    const inserted = /INSERT INTO credentials \(([^)]*)\)/.exec(
      issueKeySql(row, { name: "X" }),
    )?.[1];
    const { results } = await env.DB_0.prepare(
      "SELECT name FROM pragma_table_info('credentials')",
    ).all<{ name: string }>();
    expect(inserted?.split(", ").sort()).toEqual(
      results.map((column) => column.name).sort(),
    );
  });
});
