// `npm run efti:facts`: rewrites src/domain/efti/schema-facts.generated.ts
// from the vendored eFTI XSD (scripts/lib/efti-schema-facts.ts), after the
// schemas in vendor/efti/ are replaced by a newer version.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { GENERATED_FILE, schemaFactsSource } from "./lib/efti-schema-facts";

await mkdir(dirname(GENERATED_FILE), { recursive: true });
await writeFile(GENERATED_FILE, await schemaFactsSource());
console.log(`wrote ${GENERATED_FILE}`);
