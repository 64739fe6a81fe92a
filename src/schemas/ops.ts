import * as z from "zod";
import { documentLocaleSchema } from "./document-locale";
import { KEY_ENVIRONMENTS } from "./environment";
import { limitParameter, MAX_PAGE_LIMIT, singleValued } from "./list-query";
import { webhookEndpointPath } from "./webhook-endpoint";

// The bodies and answers of the operations API (/ops/v1, docs/operations.md),
// described in its own OpenAPI document, apart from the customers' one.

const MAX_RATE_LIMIT = 9_999_999;
const keyEnvironment = z.enum(KEY_ENVIRONMENTS);

export const issueKeyRequestSchema = z.strictObject({
  organization: z.string().trim().min(1).max(200),
  environment: keyEnvironment,
  /** Sets the organization's PDF language (also for an existing one). */
  document_locale: documentLocaleSchema.optional(),
  allowed_ips: z
    .array(z.union([z.ipv4(), z.ipv6()]))
    .max(100)
    .default([]),
  rate_limit_per_minute: z.int().min(1).max(MAX_RATE_LIMIT).optional(),
});

export type IssueKeyRequest = z.output<typeof issueKeyRequestSchema>;

export const issuedKeySchema = z.strictObject({
  key: z.string(),
  credential_id: z.string(),
  organization_id: z.string(),
});

export const credentialIdPath = z.object({
  credential_id: z.string().regex(/^cred_[0-9A-Za-z]{1,64}$/),
});

/** One webhook endpoint of a credential. */
export const credentialEndpointPath = credentialIdPath.extend(
  webhookEndpointPath.shape,
);

export const revokedKeySchema = z.strictObject({
  credential_id: z.string(),
  revoked: z.literal(true),
});

export const listedKeySchema = z.strictObject({
  credential_id: z.string(),
  organization_id: z.string(),
  organization: z.string(),
  document_locale: z.string(),
  environment: keyEnvironment,
  /** Prefix and last four characters only. */
  key: z.string(),
  allowed_ips: z.array(z.string()),
  rate_limit_per_minute: z.int().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

export const organizationNamePath = z.object({
  organization: z.string().min(1).max(200),
});

export const setLocaleRequestSchema = z.strictObject({
  document_locale: documentLocaleSchema,
});

export const organizationLocaleSchema = z.strictObject({
  organization: z.string(),
  document_locale: z.string(),
});

export const documentUuidPath = z.object({
  uuid: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
});

export const documentAuditSchema = z.strictObject({
  document_uuid: z.string(),
  archived: z.boolean(),
  events: z.array(
    z.strictObject({
      occurred_at: z.string(),
      type: z.string(),
      credential_id: z.string().nullable(),
      gate: z.string().nullable(),
      dataset_id: z.string().nullable(),
      request_id: z.string(),
      source: z.enum(["d1", "archive"]),
    }),
  ),
});

/** The tables the upgrade from one database moves, in order: credentials last, since a summary's route is read from its credential in DB_0. */
export const MOVED_TABLES = [
  "reservations",
  "summaries",
  "credentials",
] as const;

const upgradeCursorSchema = z.strictObject({
  table: z.enum(MOVED_TABLES),
  after: z.array(z.string()).min(1).max(3).nullable(),
});

/** Where an upgrade call starts: a table, after the key of the last row read (null: its start). */
export type UpgradeCursor = z.output<typeof upgradeCursorSchema>;

export const upgradeStepRequestSchema = z.strictObject({
  /** Where this call starts: the `next` of the previous one; absent or null: the start. */
  cursor: upgradeCursorSchema.nullable().default(null),
});

export const upgradeStepSchema = z.strictObject({
  table: z.enum(MOVED_TABLES),
  moved: z.int(),
  next: upgradeCursorSchema.nullable(),
});

export const rebalanceRequestSchema = z.strictObject({
  /** The shard count before DB_{from} … were bound. */
  from: z.int().min(1).max(4096),
});

const rebalanceCursorSchema = z.strictObject({
  table: z.string(),
  shard: z.int(),
  after: z.int(),
});

export const rebalanceProgressSchema = z.strictObject({
  from: z.int(),
  to: z.int(),
  state: z.enum(["running", "done"]),
  cursor: rebalanceCursorSchema.nullable(),
  moved: z.record(z.string(), z.int()),
  steps: z.int(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  last_error: z.string().nullable(),
});

export const opsCallsSchema = z.array(
  z.strictObject({
    request_id: z.string(),
    operation: z.string(),
    client_ip: z.string(),
    key_version: z.string().nullable(),
    status: z.int().nullable(),
    started_at: z.string(),
    finished_at: z.string().nullable(),
  }),
);

/** Query of the gates' audit trail; unknown parameters are ignored. */
export const gateCallListQuerySchema = z.object({
  limit: limitParameter(50),
  starting_after: singleValued(
    z
      .string()
      .regex(/^[1-9][0-9]{0,15}$/, {
        message: "Must be the `id` of a request listed before.",
      })
      .transform(Number)
      .optional()
      .meta({
        type: "integer",
        description:
          "The `id` of the last request of the page before: this page lists the older ones.",
      }),
  ),
  dataset_id: singleValued(
    z.string().min(1).max(64).optional().meta({
      description:
        "Only the requests naming this dataset id (as the gate wrote it in the path).",
    }),
  ),
});

const GATE_OPERATIONS = ["get_consignment", "follow_up"] as const;
export type GateOperation = (typeof GATE_OPERATIONS)[number];

const gateCallFields = {
  request_id: z.string().meta({
    description:
      "This service's id of the request (its answer's X-Request-Id).",
  }),
  gate_request_id: z.string().nullable().meta({
    description:
      "The gate's own id of the request, as it sent it (its `requestId` parameter, else its `X-Request-Id` header; at most 64 characters), or null.",
  }),
  dataset_id: z.string(),
  subsets: z.array(z.string()).meta({
    description:
      "The `subsetId` values asked for, split at commas (at most 12, each at most 64 characters).",
  }),
  subsets_served: z.array(z.string()).nullable().meta({
    description:
      "The subsets the answer served, normalised (`full` as the subsets it stands for), or null: no consignment served.",
  }),
  gate: z.string().nullable(),
  client_ip: z.string(),
  status: z.int().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
};

export const gateCallListSchema = z.strictObject({
  data: z.array(
    z.strictObject({
      id: z.int(),
      operation: z.enum(GATE_OPERATIONS).nullable().meta({
        description:
          "What the gate asked: a consignment or a follow-up (null on a row written before it was recorded).",
      }),
      ...gateCallFields,
    }),
  ),
  has_more: z.boolean(),
});

const GATE_CALL_ENTRIES = ["arrived", "answered", "refused"] as const;

/** A row of the trail's chain as it is hashed, verified and exported. */
const gateCallRecordSchema = z.strictObject({
  id: z.int(),
  entry: z.enum(GATE_CALL_ENTRIES).meta({
    description:
      "`arrived`: a request let in, written before it runs; `answered`: its answer; `refused`: a refusal (401, 403).",
  }),
  operation: z.enum(GATE_OPERATIONS),
  ...gateCallFields,
  previous_hash: z.string().meta({
    description:
      "The `hash` of the row before it in the chain (64 zeros for the first).",
  }),
  hash: z.string().meta({
    description:
      "SHA-256 (hex) of the row's fields but `id` and `hash`, as a JSON array in this order, `previous_hash` last.",
  }),
});

export type GateCallRecord = z.output<typeof gateCallRecordSchema>;

export const gateCallChainQuerySchema = z.object({
  limit: limitParameter(MAX_PAGE_LIMIT),
  starting_after: gateCallListQuerySchema.shape.starting_after,
});

export const gateCallChainPageSchema = z.strictObject({
  data: z.array(gateCallRecordSchema),
  has_more: z.boolean(),
});

export type GateCallChainPage = z.output<typeof gateCallChainPageSchema>;

export type GateCallList = z.output<typeof gateCallListSchema>;

export const REGISTRATION_STATES = ["parked", "unsent"] as const;

export const registrationListQuerySchema = z.object({
  state: singleValued(
    z.enum(REGISTRATION_STATES).meta({
      description:
        "`parked`: refused by the gate for good (a 4xx other than 408, 425 and 429), never tried again until sent again by `POST /ops/v1/efti/registrations/retry`. `unsent`: waiting for their next attempt.",
    }),
  ),
  limit: limitParameter(50),
  dataset_id: singleValued(
    z.string().min(1).max(64).optional().meta({
      description: "Only this dataset's registrations.",
    }),
  ),
});

export const registrationListSchema = z.strictObject({
  data: z.array(
    z.strictObject({
      id: z.string(),
      dataset_id: z.string(),
      document_uuid: z.string(),
      created_at: z.string().meta({
        description: "When the fact that registers it committed.",
      }),
      attempts: z.int().meta({
        description:
          "PUTs tried since it was written or last sent again by the operations API.",
      }),
      last_status: z.int().nullable().meta({
        description:
          "The gate's status to the last failed PUT; null when none answered.",
      }),
      next_attempt_at: z.string().nullable().meta({
        description:
          "Not tried before then; null: due (or parked). The cron takes a row a minute past it.",
      }),
      parked_at: z.string().nullable(),
    }),
  ),
  has_more: z.boolean(),
});

export type RegistrationList = z.output<typeof registrationListSchema>;

export const registrationRetryRequestSchema = z.strictObject({
  /** Only this dataset's parked registrations; absent: any. */
  dataset_id: z.string().min(1).max(64).optional(),
});

export const registrationRetrySchema = z.strictObject({
  retried: z.int().meta({
    description:
      "How many parked registrations are sent again; call again until it is 0.",
  }),
});

/** One run of the cron's work, as its log line says it (docs/operations.md "Watching production"). */
export const scheduledWorkSchema = z
  .object({
    out_of_budget: z.array(z.string()).meta({
      description:
        "The tasks that used their whole share of the run's queries: the next run goes on with them.",
    }),
  })
  .catchall(z.unknown())
  .meta({
    description:
      "Each task's figures by name (`staleDeletions`, `archive`, …; null when it failed), and `out_of_budget`.",
  });
