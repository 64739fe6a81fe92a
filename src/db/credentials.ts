import { eq } from "drizzle-orm";
import type { Database } from "./client";
import { type CredentialRow, credentials } from "./schema";

export async function findCredentialByKeyHash(
  db: Database,
  keyHash: string,
): Promise<CredentialRow | undefined> {
  return db.query.credentials.findFirst({
    where: eq(credentials.keyHash, keyHash),
  });
}
