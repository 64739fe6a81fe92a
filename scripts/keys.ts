// The support key tool: issues, revokes and lists API keys and sets an
// organization's PDF language (organizations in every shard, a credential in
// its key's shard), and prints a document's audit trail from its shard and
// its R2 archive. Local databases by default, the deployed ones
// (wrangler.toml's production environment) with --remote. See README
// "Issuing keys".
import { isIP } from "node:net";
import { parseArgs } from "node:util";
import {
  DOCUMENT_LOCALES,
  isDocumentLocale,
} from "../src/schemas/document-locale";
import { documentAudit } from "./lib/audit";
import {
  issueKey,
  listCredentials,
  revokeCredential,
  setOrganizationLocale,
} from "./lib/credentials";
import type { DatabaseTarget } from "./lib/d1";

const USAGE = `usage:
  npm run keys -- create --org NAME --env test|live [--locale LOCALE] [--allow-ip IP]... [--rate-limit N]
  npm run keys -- revoke CREDENTIAL_ID
  npm run keys -- list
  npm run keys -- set-locale --org NAME LOCALE
  npm run keys -- audit DOCUMENT_UUID   (its events from D1 and its R2 archive;
                                         --remote reads PDF_KEYRING from the environment)
options for every command:
  --remote            the deployed databases ([env.production]) instead of the local ones
  --persist-to DIR    the local state folder (default .wrangler/state)
locales: ${DOCUMENT_LOCALES.join(", ")}`;

class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const OPTIONS = {
  org: { type: "string" },
  env: { type: "string" },
  locale: { type: "string" },
  "allow-ip": { type: "string", multiple: true },
  "rate-limit": { type: "string" },
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

async function runCommand(
  command: string | undefined,
  positionals: string[],
  values: Values,
  target: DatabaseTarget,
): Promise<unknown> {
  switch (command) {
    case "create":
      expectPositionals(positionals, 0);
      return issueKey(target, {
        organization: required(values.org, "--org"),
        environment: environment(values.env),
        locale: locale(values.locale),
        allowedIps: allowedIps(values["allow-ip"]),
        rateLimitPerMinute: rateLimit(values["rate-limit"]),
      });
    case "revoke": {
      expectPositionals(positionals, 1);
      const credentialId = positionals[0] ?? "";
      if (!(await revokeCredential(target, credentialId))) {
        throw new UsageError(`no active credential ${credentialId}`);
      }
      return { credential_id: credentialId, revoked: true };
    }
    case "list":
      expectPositionals(positionals, 0);
      return listCredentials(target);
    case "set-locale": {
      expectPositionals(positionals, 1);
      const organization = required(values.org, "--org");
      const documentLocale = required(locale(positionals[0]), "LOCALE");
      if (
        !(await setOrganizationLocale(target, organization, documentLocale))
      ) {
        throw new UsageError(`no organization named "${organization}"`);
      }
      return { organization, document_locale: documentLocale };
    }
    case "audit": {
      expectPositionals(positionals, 1);
      const uuid = (positionals[0] ?? "").toLowerCase();
      if (!UUID.test(uuid))
        throw new UsageError(`not a document uuid: "${uuid}"`);
      return documentAudit(target, uuid);
    }
    default:
      throw new UsageError(
        command ? `unknown command "${command}"` : "a command is required",
      );
  }
}

async function main(): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, ...rest] = positionals;
  try {
    const result = await runCommand(command, rest, values, {
      remote: values.remote ?? false,
      persistTo: values["persist-to"],
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = await main();
