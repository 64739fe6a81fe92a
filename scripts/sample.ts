// `npm run sample -- [--locale fr] [--environment test]`: writes sample control documents
// to samples/ (gitignored) for a person to look at: a full one, a minimal
// one, a correction, a long one that flows onto further pages, a grouped one
// of 40 shipments and a correction of it. Without --locale, every locale;
// without --environment, live documents.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  FULL_DOCUMENT,
  groupedDocument,
  ISSUE,
  LONG_DOCUMENT,
  MINIMAL_DOCUMENT,
  RECTIFIED_VERSION,
} from "../fixtures/documents";
import type { RectifiedVersion } from "../src/domain/documents/render-port";
import { renderDocumentPdf } from "../src/pdf/render-document";
import {
  DOCUMENT_LOCALES,
  type DocumentLocale,
  isDocumentLocale,
} from "../src/schemas/document-locale";
import type { DocumentData } from "../src/schemas/document-request";
import { ENVIRONMENTS, type Environment } from "../src/schemas/environment";

const OUTPUT = "samples";

const SAMPLES: Record<
  string,
  { data: DocumentData; rectifies: RectifiedVersion | null }
> = {
  full: { data: FULL_DOCUMENT, rectifies: null },
  minimal: { data: MINIMAL_DOCUMENT, rectifies: null },
  correction: { data: FULL_DOCUMENT, rectifies: RECTIFIED_VERSION },
  long: { data: LONG_DOCUMENT, rectifies: null },
  grouped: { data: groupedDocument(40), rectifies: null },
  "grouped-correction": {
    data: groupedDocument(40),
    rectifies: { ...RECTIFIED_VERSION, data: groupedDocument(38) },
  },
};

const isEnvironment = (value: string): value is Environment =>
  (ENVIRONMENTS as readonly string[]).includes(value);

function parseOptions(): {
  locales: DocumentLocale[];
  environment: Environment;
} | null {
  const { values } = parseArgs({
    options: {
      locale: { type: "string" },
      environment: { type: "string", default: "live" },
    },
  });
  const { locale, environment } = values;
  if (!isEnvironment(environment)) return null;
  if (locale === undefined) {
    return { locales: [...DOCUMENT_LOCALES], environment };
  }
  if (!isDocumentLocale(locale)) return null;
  return { locales: [locale], environment };
}

const options = parseOptions();
if (!options) {
  console.error(
    `Usage: npm run sample -- [--locale ${DOCUMENT_LOCALES.join("|")}] [--environment ${ENVIRONMENTS.join("|")}]`,
  );
  process.exit(2);
}
await mkdir(OUTPUT, { recursive: true });
for (const locale of options.locales) {
  for (const [name, sample] of Object.entries(SAMPLES)) {
    const pdf = await renderDocumentPdf({
      ...ISSUE,
      ...sample,
      locale,
      environment: options.environment,
    });
    const marked =
      options.environment === "live" ? "" : `-${options.environment}`;
    const file = join(OUTPUT, `${locale}${marked}-${name}.pdf`);
    await writeFile(file, pdf.bytes);
    console.log(`${file}: ${pdf.pages} page(s), ${pdf.bytes.length} bytes`);
  }
}
