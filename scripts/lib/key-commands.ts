// The key tool's commands (scripts/keys.ts): its arguments checked, and the
// calls of the operations API each makes (docs/operations.md "Issuing keys").
import { isIP } from "node:net";
import type { parseArgs } from "node:util";
import { walkGateCallChain } from "../../src/domain/operations/gate-call-chain";
import {
  DOCUMENT_LOCALES,
  isDocumentLocale,
} from "../../src/schemas/document-locale";
import { type OpsClient, OpsError } from "./ops-client";
import { SUPPORT_SECRET_VARIABLE } from "./ops-target";

export const USAGE = `usage:
  npm run keys -- create --org NAME --env test|live [--locale LOCALE] [--allow-ip IP]... [--rate-limit N]
  npm run keys -- revoke CREDENTIAL_ID
  npm run keys -- list
  npm run keys -- webhooks CREDENTIAL_ID                    (its webhook endpoints, revoked or not)
  npm run keys -- delete-webhook CREDENTIAL_ID ENDPOINT_ID
  npm run keys -- set-locale --org NAME LOCALE
  npm run keys -- audit DOCUMENT_UUID   (its events from D1 and its R2 archive)
  npm run keys -- verify-audit          (the eFTI gates' audit trail's hash chain; exit 1 at a broken link)
options for every command:
  --url URL           the Worker at URL (a deployment: the support secret in ${SUPPORT_SECRET_VARIABLE};
                      a local npm start: read from .dev.vars)
  --persist-to DIR    without --url: the local state folder (default .wrangler/state)
locales: ${DOCUMENT_LOCALES.join(", ")}`;

/** Wrong arguments: the tool prints it with the usage and exits 2. */
export class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ENDPOINT_ID = /^we_[0-9A-Za-z]{24}$/;

export const OPTIONS = {
  org: { type: "string" },
  env: { type: "string" },
  locale: { type: "string" },
  "allow-ip": { type: "string", multiple: true },
  "rate-limit": { type: "string" },
  url: { type: "string" },
  // Gone: the deployed databases are reached through the Worker (--url).
  remote: { type: "boolean" },
  "persist-to": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>["values"];

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

function locale(value: string | undefined): string | undefined {
  if (value !== undefined && !isDocumentLocale(value)) {
    throw new UsageError(`unknown locale "${value}"`);
  }
  return value;
}

function environment(value: string | undefined): "test" | "live" {
  if (value !== "test" && value !== "live") {
    throw new UsageError("--env must be test or live");
  }
  return value;
}

function rateLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,6}$/.test(value)) {
    throw new UsageError(
      "--rate-limit must be a positive whole number of requests a minute",
    );
  }
  return Number(value);
}

function allowedIps(values: string[] | undefined): string[] {
  for (const ip of values ?? []) {
    if (isIP(ip) === 0) throw new UsageError(`not an IP address: "${ip}"`);
  }
  return values ?? [];
}

function expectPositionals(positionals: string[], count: number): void {
  if (positionals.length !== count)
    throw new UsageError("wrong number of arguments");
}

/** A 404 of the operations API as the usage error it is here. */
async function unlessMissing<T>(call: Promise<T>, message: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof OpsError && error.status === 404) {
      throw new UsageError(message);
    }
    throw error;
  }
}

/**
 * The call of a command, once its arguments are checked (a usage error
 * before any Worker is reached).
 */
export function commandCall(
  command: string | undefined,
  positionals: string[],
  values: Values,
): (ops: OpsClient) => Promise<unknown> {
  switch (command) {
    case "create": {
      expectPositionals(positionals, 0);
      const body = {
        organization: required(values.org, "--org"),
        environment: environment(values.env),
        document_locale: locale(values.locale),
        allowed_ips: allowedIps(values["allow-ip"]),
        rate_limit_per_minute: rateLimit(values["rate-limit"]),
      };
      return (ops) => ops.issueKey(body);
    }
    case "revoke": {
      expectPositionals(positionals, 1);
      const credentialId = positionals[0] ?? "";
      return (ops) =>
        unlessMissing(
          ops.revokeKey(credentialId),
          `no active credential ${credentialId}`,
        );
    }
    case "list":
      expectPositionals(positionals, 0);
      return (ops) => ops.listKeys();
    case "webhooks": {
      expectPositionals(positionals, 1);
      const credentialId = positionals[0] ?? "";
      return (ops) => ops.listKeyWebhookEndpoints(credentialId);
    }
    case "delete-webhook": {
      expectPositionals(positionals, 2);
      const [credentialId = "", endpointId = ""] = positionals;
      if (!ENDPOINT_ID.test(endpointId))
        throw new UsageError(`not a webhook endpoint id: "${endpointId}"`);
      return async (ops) => {
        await unlessMissing(
          ops.deleteKeyWebhookEndpoint(credentialId, endpointId),
          `credential ${credentialId} has no webhook endpoint ${endpointId}`,
        );
        return {
          credential_id: credentialId,
          endpoint_id: endpointId,
          deleted: true,
        };
      };
    }
    case "set-locale": {
      expectPositionals(positionals, 1);
      const organization = required(values.org, "--org");
      const documentLocale = required(locale(positionals[0]), "LOCALE");
      return (ops) =>
        unlessMissing(
          ops.setLocale(organization, documentLocale),
          `no organization named "${organization}"`,
        );
    }
    case "audit": {
      expectPositionals(positionals, 1);
      const uuid = (positionals[0] ?? "").toLowerCase();
      if (!UUID.test(uuid))
        throw new UsageError(`not a document uuid: "${uuid}"`);
      return (ops) => ops.documentAudit(uuid);
    }
    case "verify-audit":
      expectPositionals(positionals, 0);
      return async (ops) => {
        const { checked, broken } = await walkGateCallChain(ops.gateCallChain);
        if (broken) {
          throw new Error(
            `the gates' audit trail is broken at row ${broken.id}: its ${broken.reason === "hash" ? "hash is not that of its fields" : "previous_hash is not the hash of the row before it"} (${checked} rows before it verified)`,
          );
        }
        return { verified_rows: checked, broken: null };
      };
    default:
      throw new UsageError(
        command ? `unknown command "${command}"` : "a command is required",
      );
  }
}
