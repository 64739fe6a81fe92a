// Copies the API reference viewer (Swagger UI) from node_modules into the
// Worker's static assets, so that /docs loads nothing from a CDN. Run by
// `npm install` (postinstall); the copies are not committed.
import { copyFile, mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const VIEWER_FILES = ["swagger-ui-bundle.js", "swagger-ui.css"];
const TARGET = "public/vendor/swagger-ui";

const source = dirname(
  createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"),
);
console.error(
  `postinstall: copying Swagger UI into ${TARGET}, so that /docs loads nothing from a CDN`,
);
await mkdir(TARGET, { recursive: true });
for (const file of VIEWER_FILES) {
  await copyFile(join(source, file), join(TARGET, file));
}
