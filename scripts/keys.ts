// The support key tool: issues, revokes and lists API keys, lists and deletes
// a key's webhook endpoints, sets an organization's PDF language and prints
// a document's audit trail, as a client of the operations API
// (docs/operations.md), which does the work inside the Worker: a deployment
// or a running `npm start` with --url, else the local state, started or not.
// See docs/operations.md "Issuing keys".
import { parseArgs } from "node:util";
import { commandCall, OPTIONS, USAGE, UsageError } from "./lib/key-commands";
import { SUPPORT_SECRET_VARIABLE, withOps } from "./lib/ops-target";

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
    if (values.remote) {
      throw new UsageError(
        `There is no --remote: use --url https://… with the support secret in ${SUPPORT_SECRET_VARIABLE} (docs/operations.md)`,
      );
    }
    const call = commandCall(command, rest, values);
    const result = await withOps(
      { url: values.url, persistTo: values["persist-to"] },
      call,
    );
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
