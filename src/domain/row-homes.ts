import type { MovedRow, MovedTable } from "../db/rebalance";
import type { Environment } from "../schemas/environment";
import { uuidOfObjectKey } from "./documents/issue-document";
import {
  credentialBucket,
  keyBucket,
  referenceBucket,
  uuidBucket,
} from "./shard-routing";

// Where every table's rows live, declared once (docs/scale.md "How each
// operation routes" and "Adding shards"). The mover moves each table by
// what it declares here, in this order; test/db/row-homes.test.ts fails
// for a table of the schema that is not declared, so a new table cannot be
// forgotten by the rebalance. While a rebalance runs, a row of a table with
// a bucket is in its former shard, in its current one, or mid-move in
// both: every request reads and writes it as shard-routing.ts says
// (findMoving, writeMoving, shardsHolding), or first brings the few rows it
// works on together ahead of the mover (events/home.ts, homeHolding).

/** A table whose rows live in the shard of their bucket, and what the bucket follows. */
interface Bucketed {
  /** What places the row: a document (its uuid), a reference, an API key's hash, a credential's home. */
  home: "document" | "reference" | "key" | "credential";
  bucket: (row: MovedRow) => number;
}

/** Every shard holds a copy of each row, read from DB_0's. */
interface EveryShard {
  home: "every shard";
}

/** Rows only DB_0 holds, whatever the count of shards: never moved. */
interface Directory {
  home: "DB_0";
}

const text = (row: MovedRow, column: string): string =>
  String(row[column] ?? "");

const environmentOf = (row: MovedRow): Environment =>
  text(row, "environment") as Environment;

/** A document's rows: the bucket its uuid carries. */
const byDocument = (column: string): Bucketed => ({
  home: "document",
  bucket: (row) => uuidBucket(text(row, column)),
});

/** Events and webhooks belong to API keys, never to demo tokens: their home follows the credential's id. */
const byCredentialHome: Bucketed = {
  home: "credential",
  bucket: (row) =>
    credentialBucket({ id: text(row, "credential_id"), environment: "test" }),
};

/** Every table, in the order the mover takes them: organizations first (every shard holds them, credentials join them). */
export const ROW_HOMES: { organizations: EveryShard } & {
  [Table in MovedTable]: Bucketed;
} & {
  ops_calls: Directory;
  efti_gate_calls: Directory;
  efti_gate_refusals: Directory;
} = {
  organizations: { home: "every shard" },
  credentials: {
    home: "key",
    bucket: (row) => keyBucket(text(row, "key_hash"), environmentOf(row)),
  },
  reference_reservations: {
    home: "reference",
    bucket: (row) =>
      referenceBucket(
        {
          organizationId: text(row, "organization_id"),
          environment: environmentOf(row),
        },
        text(row, "reference"),
      ),
  },
  documents: byDocument("uuid"),
  audit_events: byDocument("document_uuid"),
  efti_reads: byDocument("document_uuid"),
  pending_pdf_objects: {
    home: "document",
    bucket: (row) => uuidBucket(uuidOfObjectKey(text(row, "object_key"))),
  },
  pending_deletion_marks: byDocument("document_uuid"),
  // A demo token's list lives in shard 0 beside it; any other
  // credential's environment routes its list alike.
  document_summaries: {
    home: "credential",
    bucket: (row) =>
      credentialBucket({
        id: text(row, "credential_id"),
        environment:
          row.credential_environment === "demo" ? "demo" : ("test" as const),
      }),
  },
  efti_follow_ups: byDocument("document_uuid"),
  event_outbox: byDocument("document_uuid"),
  efti_registrations: byDocument("document_uuid"),
  events: byCredentialHome,
  webhook_endpoints: byCredentialHome,
  webhook_deliveries: byCredentialHome,
  webhook_attempts: byCredentialHome,
  // The operations API's and the gates' audit trails.
  ops_calls: { home: "DB_0" },
  efti_gate_calls: { home: "DB_0" },
  efti_gate_refusals: { home: "DB_0" },
};

type Declared = keyof typeof ROW_HOMES;

/** The tables a rebalance moves or copies, in its order. */
export type RebalancedTable = {
  [Table in Declared]: (typeof ROW_HOMES)[Table] extends Directory
    ? never
    : Table;
}[Declared];

export const REBALANCED_TABLES = (Object.keys(ROW_HOMES) as Declared[]).filter(
  (table): table is RebalancedTable => ROW_HOMES[table].home !== "DB_0",
);
