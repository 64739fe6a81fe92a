// `npm run lint:openapi` (in .ci/run): Redocly CLI's recommended rules, as
// redocly.yaml sets them, on the OpenAPI document as the service serves it,
// written to a temporary folder, never into the repository.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apiDocument } from "../src/http/routes/openapi";

const folder = await mkdtemp(join(tmpdir(), "deca-openapi-"));
try {
  const file = join(folder, "openapi.json");
  await writeFile(file, JSON.stringify(apiDocument(), null, 2));
  const { status } = spawnSync(
    "redocly",
    ["lint", "--config", "redocly.yaml", file],
    { stdio: "inherit" },
  );
  process.exitCode = status ?? 1;
} finally {
  await rm(folder, { recursive: true, force: true });
}
