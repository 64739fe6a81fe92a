// `npm run openapi`: writes the OpenAPI document to dist/openapi.json, for
// publishing and for generating clients.
import { mkdir, writeFile } from "node:fs/promises";
import { apiDocument } from "../src/http/routes/openapi";

const OUTPUT = "dist/openapi.json";

await mkdir("dist", { recursive: true });
await writeFile(OUTPUT, `${JSON.stringify(apiDocument(), null, 2)}\n`);
console.log(`Wrote ${OUTPUT}`);
