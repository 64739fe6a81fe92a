// The eFTI XSD validation of the tests: libxml2's xmllint compiled to
// WebAssembly (xmllint-wasm, from npm), against the schemas in vendor/efti/.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { memoryPages, validateXML } from "xmllint-wasm";

const XSD = new URL("../../vendor/efti/xsd/", import.meta.url).pathname;

/** The XSD files a main schema imports, under the names its imports give. */
async function importedSchemas() {
  const files = [];
  for (const folder of ["types", "codes"]) {
    for (const name of await readdir(join(XSD, folder))) {
      files.push({
        fileName: `${folder}/${name}`,
        contents: await readFile(join(XSD, folder, name), "utf8"),
      });
    }
  }
  return files;
}

export type SchemaName = "consignment-common" | "consignment-identifier";

/** The errors xmllint finds in each document against `schema` (none: valid). */
export async function schemaErrors(
  schema: SchemaName,
  documents: readonly string[],
): Promise<string[]> {
  const result = await validateXML({
    xml: documents.map((contents, index) => ({
      fileName: `document-${index + 1}.xml`,
      contents,
    })),
    schema: {
      fileName: `${schema}.xsd`,
      contents: await readFile(join(XSD, `${schema}.xsd`), "utf8"),
    },
    preload: await importedSchemas(),
    maxMemoryPages: 512 * memoryPages.MiB,
  });
  return result.errors.map((error) => error.rawMessage);
}
