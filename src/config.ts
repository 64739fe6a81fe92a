import * as z from "zod";
import { DEFAULT_REQUESTS_PER_MINUTE } from "./domain/credential-rate-limit";
import type { DemoConfig } from "./domain/demo/demo-config";
import type { SubsetId } from "./domain/efti/schema-facts.generated";
import { EXTRA_SUBSETS, SUBSETS_SERVED_ALWAYS } from "./domain/efti/subsets";
import type { EftiGate } from "./domain/services";
import { oncePer } from "./once-per";
import { type IpRange, ipRange } from "./schemas/ip-range";
import { gateUrlRefusal } from "./schemas/webhook-url";
import { type Keyring, parseKeyring } from "./storage/keyring";
import { parseSealKeyring, type SealKeyring } from "./storage/seal-keyring";

// The Worker's configuration (wrangler.toml's [vars] and its secrets),
// read and checked at once: a malformed value stops the service with a
// message naming the variable, never quoting a secret.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A positive whole number such as a limit; the contract's figure when unset. */
const count = (fallback: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, {
      error: "must be a whole number of at least 1",
    })
    .transform(Number)
    .default(fallback);

/** A keyring secret; its own messages name the variable and never quote it. */
const keyring = (name: string) =>
  z
    .string({ error: "must be set (a keyring secret)" })
    .transform((secret, ctx) => {
      try {
        return parseKeyring(secret, name);
      } catch (error) {
        ctx.issues.push({
          code: "custom",
          message: (error as Error).message,
          input: undefined,
        });
        return z.NEVER;
      }
    });

/**
 * Where the Worker runs and the origin its links print. In production every
 * PDF's QR link is read by an inspector's phone: it must be the service's
 * https origin, never the scheme and host a caller happened to use.
 */
const originSchema = z
  .object({
    // Empty: the origin of each request (local runs only).
    BASE_URL: z
      .union([
        z.literal(""),
        z.url({
          protocol: /^https?$/,
          error: "must be an http(s) URL, or empty for the request's origin",
        }),
      ])
      .default(""),
    DEPLOYMENT: z
      .enum(["local", "production"], {
        error: 'must be "local" or "production"',
      })
      .default("local"),
  })
  .check((ctx) => {
    const { BASE_URL, DEPLOYMENT } = ctx.value;
    if (DEPLOYMENT === "production" && !BASE_URL.startsWith("https://")) {
      ctx.issues.push({
        code: "custom",
        message:
          "BASE_URL must be the service's https:// origin in production: every PDF's QR link prints it",
        input: BASE_URL,
      });
    }
  });

/**
 * Headers the registrations may not be given by EFTI_GATE_HEADERS: the
 * request's own (its host, body and type) and hop-by-hop ones, which a proxy
 * would drop or act on (RFC 9110 7.6.1).
 */
const GATE_HEADERS_REFUSED = [
  "host",
  "content-length",
  "content-type",
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

// RFC 9110's token (a field name) and field value without control characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** A refusal whose message names its variable and never quotes a value. */
const refuse = (ctx: { issues: z.core.$ZodRawIssue[] }, message: string) => {
  ctx.issues.push({ code: "custom", message, input: undefined });
  return z.NEVER;
};

/** EFTI_GATE_HEADERS: header name → value, sent with every registration. */
const gateHeaders = z
  .string()
  .default("")
  .transform((value, ctx): Record<string, string> => {
    if (value === "") return {};
    const shape =
      'EFTI_GATE_HEADERS must be a JSON object of header names to values ({"X-Pre-Authenticated-User-Id":"…"}), or empty';
    let headers: unknown;
    try {
      headers = JSON.parse(value);
    } catch {
      return refuse(ctx, shape);
    }
    if (
      typeof headers !== "object" ||
      headers === null ||
      Array.isArray(headers) ||
      !Object.entries(headers).every(
        ([name, text]) =>
          HEADER_NAME.test(name) &&
          typeof text === "string" &&
          HEADER_VALUE.test(text),
      )
    ) {
      return refuse(ctx, shape);
    }
    const refused = Object.keys(headers).filter((name) =>
      GATE_HEADERS_REFUSED.includes(name.toLowerCase()),
    );
    if (refused.length > 0) {
      return refuse(
        ctx,
        `EFTI_GATE_HEADERS may not set ${refused.join(", ")}: the request sets it, or it is a hop's`,
      );
    }
    return headers as Record<string, string>;
  });

/** The mtls_certificates binding the registrations go through, when bound. */
const clientCertificateBinding = z
  .custom<Fetcher>(
    (binding) =>
      typeof binding === "object" &&
      binding !== null &&
      typeof (binding as { fetch?: unknown }).fetch === "function",
    {
      error:
        "EFTI_GATE_CLIENT_CERTIFICATE must be an mtls_certificates binding",
    },
  )
  .optional();

/**
 * The eFTI gate the identifiers of every issued, corrected or deleted
 * consignment are registered with (docs/efti.md "Registration with the
 * gate"): off while EFTI_GATE_URL is empty. Outside production only a
 * loopback URL (a stub gate on the developer's machine); in production an
 * https:// URL of a public host, with at least one way to authenticate to
 * it: the Bearer credential, configured headers or a client certificate.
 */
const gateSchema = z
  .object({
    EFTI_GATE_URL: z.string().default(""),
    EFTI_GATE_CREDENTIAL: z.string().optional(),
    EFTI_GATE_HEADERS: gateHeaders,
    EFTI_GATE_CLIENT_CERTIFICATE: clientCertificateBinding,
    DEPLOYMENT: z.string().default("local"),
  })
  .check((ctx) => {
    const { EFTI_GATE_URL, EFTI_GATE_CREDENTIAL, EFTI_GATE_HEADERS } =
      ctx.value;
    if (EFTI_GATE_URL === "") return;
    const production = ctx.value.DEPLOYMENT === "production";
    const refusal = gateUrlRefusal(EFTI_GATE_URL, { production });
    if (refusal) {
      refuse(ctx, `EFTI_GATE_URL ${refusal}`);
    }
    const credential = (EFTI_GATE_CREDENTIAL ?? "") !== "";
    if (
      credential &&
      Object.keys(EFTI_GATE_HEADERS).some(
        (name) => name.toLowerCase() === "authorization",
      )
    ) {
      refuse(
        ctx,
        "EFTI_GATE_HEADERS may not set Authorization when EFTI_GATE_CREDENTIAL is set",
      );
    }
    if (
      production &&
      !credential &&
      Object.keys(EFTI_GATE_HEADERS).length === 0 &&
      ctx.value.EFTI_GATE_CLIENT_CERTIFICATE === undefined
    ) {
      refuse(
        ctx,
        "EFTI_GATE_URL needs an authentication in production: EFTI_GATE_CREDENTIAL, EFTI_GATE_HEADERS or the EFTI_GATE_CLIENT_CERTIFICATE binding",
      );
    }
  });

/** The body limits when MAX_BODY_BYTES and MAX_DEMO_BODY_BYTES are unset (docs/api.md). */
export const DEFAULT_MAX_BODY_BYTES = { real: 131_072, demo: 32_768 };

/** The documents a demo session may issue when DEMO_DOCUMENTS_PER_TOKEN is unset. */
export const DEFAULT_DEMO_DOCUMENTS_PER_TOKEN = 10;

/** Values separated by commas, each trimmed; empty: none. */
const commaList = z
  .string()
  .default("")
  .transform((list) =>
    list
      .split(",")
      .map((value) => value.trim())
      .filter((value) => value !== ""),
  );

/** Client IPs and CIDR ranges separated by commas; empty: any. */
const ipList = (name: string) =>
  commaList.transform((entries, ctx) =>
    entries
      .map((entry) => {
        const range = ipRange(entry);
        if (!range) {
          ctx.issues.push({
            code: "custom",
            message: `${name}: "${entry}" is not an IP address or CIDR range (203.0.113.7, 203.0.113.0/24, 2001:db8::/48), in a list separated by commas, or empty`,
            input: undefined,
          });
        }
        return range;
      })
      .filter((range) => range !== null),
  );

/** A certificate's SHA-256 fingerprint as Cloudflare reports it: lower-case hex. */
const sha256Fingerprint = z.string().regex(/^[0-9a-f]{64}$/, {
  error: "must be a SHA-256 fingerprint in lower-case hex",
});

/** GATE_CLIENT_CERTIFICATES: key version → its client certificate's fingerprint. */
const clientCertificates = z
  .string()
  .default("")
  .transform((value, ctx) => {
    if (value === "") return {};
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.issues.push({
        code: "custom",
        message:
          "GATE_CLIENT_CERTIFICATES must be a JSON object of key versions to SHA-256 fingerprints, or empty",
        input: undefined,
      });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(z.string(), sha256Fingerprint, {
      error: "must be a JSON object of key versions to SHA-256 fingerprints",
    }),
  );

const settingsSchema = z.object({
  MAX_BODY_BYTES: count(DEFAULT_MAX_BODY_BYTES.real),
  MAX_DEMO_BODY_BYTES: count(DEFAULT_MAX_BODY_BYTES.demo),
  DEMO_ENABLED: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("true"),
  DEMO_TOKENS_PER_MINUTE: count(3),
  DEMO_TOKENS_PER_HOUR: count(10),
  DEMO_DOCUMENTS_PER_MINUTE: count(5),
  DEMO_DOCUMENTS_PER_HOUR: count(20),
  DEMO_DOCUMENTS_PER_TOKEN: count(DEFAULT_DEMO_DOCUMENTS_PER_TOKEN),
  // A network's demo requests of any kind: as many as a key's by default.
  DEMO_REQUESTS_PER_MINUTE: count(DEFAULT_REQUESTS_PER_MINUTE),
  PDF_KEYRING: keyring("PDF_KEYRING"),
  QR_KEYRING: keyring("QR_KEYRING"),
  // Unset: the operations API does not exist (404), the rest works.
  SUPPORT_KEYRING: keyring("SUPPORT_KEYRING").optional(),
  // The API Worker's (wrangler.toml requires it): the edge Worker, which
  // never opens a webhook secret, has none.
  WEBHOOK_KEYRING: keyring("WEBHOOK_KEYRING").optional(),
  // The API Worker's too: the edge Worker renders no PDF.
  SEAL_KEYRING: z
    .string()
    .transform((secret, ctx) => {
      try {
        return parseSealKeyring(secret);
      } catch (error) {
        return refuse(ctx, (error as Error).message);
      }
    })
    .optional(),
  // Set while a rebalance runs (docs/scale.md "Adding shards"): the shard
  // count before DB_{SHARDS_BEFORE} … were bound; empty otherwise.
  SHARDS_BEFORE: z
    .string()
    .regex(/^([1-9][0-9]{0,3})?$/, {
      error:
        "must be the shard count before the last ones were added, or empty",
    })
    .default("")
    .transform((value) => (value === "" ? null : Number(value))),
  // A time-stamping authority (RFC 3161): the seals are B-T; empty: B-B.
  SEAL_TIMESTAMP_URL: z
    .union([
      z.literal(""),
      z.url({
        protocol: /^https?$/,
        error: "must be an http(s) URL of an RFC 3161 authority, or empty",
      }),
    ])
    .default(""),
  OPS_ALLOWED_IPS: ipList("OPS_ALLOWED_IPS"),
  // Unset: the eFTI gates' interface does not exist (404), the rest works.
  GATE_KEYRING: keyring("GATE_KEYRING").optional(),
  GATE_ALLOWED_IPS: ipList("GATE_ALLOWED_IPS"),
  GATE_CLIENT_CERTIFICATES: clientCertificates,
  EFTI_EXTRA_SUBSETS: commaList.pipe(
    z.array(
      z.enum(EXTRA_SUBSETS, {
        error: `must be among ${EXTRA_SUBSETS.join(", ")}, separated by commas, or empty`,
      }),
    ),
  ),
});

export interface Config {
  /** Public origin of the links in results; null for each request's own. */
  baseUrl: string | null;
  /** Body limits in bytes: real credentials, and demo requests. */
  maxBodyBytes: { real: number; demo: number };
  demo: DemoConfig;
  pdfKeyring: Keyring;
  qrKeyring: Keyring;
  /** The seals every PDF is signed with; null where they are not set (the edge Worker). */
  sealKeyring: SealKeyring | null;
  /** The time-stamping authority of the seals; null: none (B-B). */
  sealTimestampUrl: string | null;
  ops: OpsConfig;
  gate: GateConfig;
  webhooks: WebhooksConfig;
  /** The shard count before a rebalance still running; null when none runs. */
  shardsBefore: number | null;
  /** Where the consignments' identifiers are registered; null: nowhere (the default). */
  eftiGate: EftiGate | null;
}

/** Who may call the operations API (docs/operations.md). */
interface OpsConfig {
  /** The support secrets, one per version; null: no operations API. */
  supportKeyring: Keyring | null;
  /** Client IPs and ranges the operations API answers; empty: any. */
  allowedIps: readonly IpRange[];
}

/** Who may call the eFTI gates' interface (docs/efti.md "Gates"). */
interface GateConfig {
  /** The gates' keys, one per version (named after the gate and the rotation); null: no gate interface. */
  keyring: Keyring | null;
  /** Client IPs and ranges the gate interface answers; empty: any. */
  allowedIps: readonly IpRange[];
  /** The subsets served to gates: ES01, identifier and those of EFTI_EXTRA_SUBSETS. */
  subsets: readonly SubsetId[];
  /** Key version → the SHA-256 fingerprint of the client certificate it must come with; a version absent needs none. */
  clientCertificates: Readonly<Record<string, string>>;
}

/** The webhooks' configuration (docs/operations.md). */
interface WebhooksConfig {
  /** Seals the endpoints' signing secrets; null where it is not set. */
  keyring: Keyring | null;
  /** Not in production: http:// and loopback endpoint URLs are allowed, for a receiver on the developer's machine. */
  allowLoopbackHttp: boolean;
}

/** A configuration that cannot run; the message lists every malformed variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

// Both parts are checked apart, so that a message lists every malformed variable.
const configSchema = z.intersection(
  z.intersection(originSchema, settingsSchema),
  gateSchema,
);

/** `vars` checked by `schema`; throws a ConfigError naming every malformed variable. */
function parsed<T>(schema: z.ZodType<T>, vars: Record<string, unknown>): T {
  const result = schema.safeParse(vars);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    // Custom issues name their variable themselves (a keyring's, BASE_URL's).
    issue.code === "custom"
      ? issue.message
      : `${issue.path.join(".")} ${issue.message}`,
  );
  throw new ConfigError(`Invalid configuration: ${problems.join("; ")}.`);
}

/** The origin of the links, null for each request's own; throws a ConfigError as readConfig does. */
export function readBaseUrl(vars: Record<string, unknown>): string | null {
  return parsed(originSchema, vars).BASE_URL || null;
}

/** Checks the configuration; throws a ConfigError naming every malformed variable. */
export function readConfig(vars: Record<string, unknown>): Config {
  const env = parsed(configSchema, vars);
  return {
    baseUrl: env.BASE_URL || null,
    maxBodyBytes: { real: env.MAX_BODY_BYTES, demo: env.MAX_DEMO_BODY_BYTES },
    demo: {
      enabled: env.DEMO_ENABLED === "true",
      tokenLimits: [
        { limit: env.DEMO_TOKENS_PER_MINUTE, windowMs: MINUTE_MS },
        { limit: env.DEMO_TOKENS_PER_HOUR, windowMs: HOUR_MS },
      ],
      documentLimits: [
        { limit: env.DEMO_DOCUMENTS_PER_MINUTE, windowMs: MINUTE_MS },
        { limit: env.DEMO_DOCUMENTS_PER_HOUR, windowMs: HOUR_MS },
      ],
      documentsPerToken: env.DEMO_DOCUMENTS_PER_TOKEN,
      requestLimits: [
        { limit: env.DEMO_REQUESTS_PER_MINUTE, windowMs: MINUTE_MS },
      ],
    },
    pdfKeyring: env.PDF_KEYRING,
    qrKeyring: env.QR_KEYRING,
    sealKeyring: env.SEAL_KEYRING ?? null,
    sealTimestampUrl: env.SEAL_TIMESTAMP_URL || null,
    ops: {
      supportKeyring: env.SUPPORT_KEYRING ?? null,
      allowedIps: env.OPS_ALLOWED_IPS,
    },
    gate: {
      keyring: env.GATE_KEYRING ?? null,
      allowedIps: env.GATE_ALLOWED_IPS,
      subsets: [
        ...new Set([...SUBSETS_SERVED_ALWAYS, ...env.EFTI_EXTRA_SUBSETS]),
      ],
      clientCertificates: env.GATE_CLIENT_CERTIFICATES,
    },
    webhooks: {
      keyring: env.WEBHOOK_KEYRING ?? null,
      allowLoopbackHttp: env.DEPLOYMENT !== "production",
    },
    shardsBefore: env.SHARDS_BEFORE,
    eftiGate:
      env.EFTI_GATE_URL === ""
        ? null
        : {
            url: env.EFTI_GATE_URL.replace(/\/+$/, ""),
            credential: env.EFTI_GATE_CREDENTIAL || null,
            headers: env.EFTI_GATE_HEADERS,
          },
  };
}

// Once per bindings object (once per isolate), failure included.
const checkedConfig = oncePer((env: object): Config | ConfigError => {
  try {
    return readConfig(env as Record<string, unknown>);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error;
  }
});

/** The configuration of these bindings, checked on first use and remembered, failure included. */
export function configOf(env: object): Config {
  const config = checkedConfig(env);
  if (config instanceof ConfigError) throw config;
  return config;
}
