// `npm run openapi`: writes the OpenAPI document to dist/openapi.json, for
// publishing and for generating clients.
import { mkdir, writeFile } from "node:fs/promises";
import { openApiDocument } from "../src/openapi/document";

const OUTPUT = "dist/openapi.json";

await mkdir("dist", { recursive: true });
await writeFile(OUTPUT, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`Wrote ${OUTPUT}`);
