// Reads what the eFTI export needs to know of the vendored XSD (vendor/efti/):
// each element the export may write, with its eFTI id, its length limit and
// its status in Spain's subsets and the identifier subset, and the country
// codes the schema accepts. `npm run efti:facts` writes it as
// src/domain/efti/schema-facts.generated.ts; a test checks that the file
// checked in is what the XSD says.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DOMParser, type Element } from "@xmldom/xmldom";

const XSD = "http://www.w3.org/2001/XMLSchema";
const ROOT = new URL("../..", import.meta.url).pathname;
const XSD_DIRECTORY = join(ROOT, "vendor/efti/xsd");
export const GENERATED_FILE = join(
  ROOT,
  "src/domain/efti/schema-facts.generated.ts",
);

/** The subsets the table keeps a status of: Spain's, and the identifier subset. */
const SUBSETS = ["ES01", "ES02", "ES03", "ES04", "ES05", "identifier"];
/** An element enters the table when one of these subsets names it. */
const TABLE_SUBSETS = ["ES01", "identifier"];

const childElements = (parent: Element, localName: string): Element[] =>
  Array.from(parent.childNodes).filter(
    (node): node is Element =>
      node.nodeType === 1 &&
      (node as Element).namespaceURI === XSD &&
      (node as Element).localName === localName,
  );

const only = (parent: Element, localName: string): Element | undefined =>
  childElements(parent, localName)[0];

/** The `efti` annotation of an element declaration, if any. */
function eftiAnnotation(declaration: Element): Element | undefined {
  const appinfo = only(declaration, "annotation")
    ? only(only(declaration, "annotation") as Element, "appinfo")
    : undefined;
  if (!appinfo) return undefined;
  return Array.from(appinfo.childNodes).find(
    (node): node is Element =>
      node.nodeType === 1 && (node as Element).localName === "efti",
  );
}

/** The shortest of the data set's format (an..35) and the XSD type's limit (LimitedString70). */
function maxLength(format: string, type: string): number | undefined {
  const limits = [
    /^an?\.\.(\d+)$/.exec(format)?.[1],
    /^types:(?:LimitedString|Identifier|LocalizedString)(\d+)$/.exec(type)?.[1],
  ]
    .filter((limit) => limit !== undefined)
    .map(Number);
  const textual =
    /^(types:(LimitedString|Identifier|LocalizedString)|xsd:(token|string))/;
  return textual.test(type) && limits.length > 0
    ? Math.min(...limits)
    : undefined;
}

interface Row {
  path: string;
  efti: string;
  maxLength?: number;
  repeats: boolean;
  subsets: Record<string, string>;
}

async function elementRows(): Promise<Row[]> {
  const text = await readFile(
    join(XSD_DIRECTORY, "consignment-common.xsd"),
    "utf8",
  );
  const schema = new DOMParser().parseFromString(text, "application/xml")
    .documentElement as unknown as Element;
  const types = new Map(
    childElements(schema, "complexType").map((type) => [
      type.getAttribute("name") as string,
      type,
    ]),
  );
  const rows: Row[] = [];
  const walk = (typeName: string, prefix: string) => {
    const sequence = only(types.get(typeName) as Element, "sequence");
    for (const declaration of sequence
      ? childElements(sequence, "element")
      : []) {
      const annotation = eftiAnnotation(declaration);
      if (!annotation) continue;
      const statuses = new Map(
        Array.from(annotation.getElementsByTagName("subset")).map((subset) => [
          subset.getAttribute("id") as string,
          subset.getAttribute("status") as string,
        ]),
      );
      if (!TABLE_SUBSETS.some((subset) => statuses.has(subset))) continue;
      const name = declaration.getAttribute("name") as string;
      const type = declaration.getAttribute("type") as string;
      const path = prefix ? `${prefix}/${name}` : name;
      const limit = maxLength(annotation.getAttribute("format") ?? "", type);
      rows.push({
        path,
        efti: annotation.getAttribute("id") as string,
        ...(limit === undefined ? {} : { maxLength: limit }),
        repeats: declaration.getAttribute("maxOccurs") === "unbounded",
        subsets: Object.fromEntries(
          SUBSETS.filter((subset) => statuses.has(subset)).map((subset) => [
            subset,
            statuses.get(subset) as string,
          ]),
        ),
      });
      if (type.startsWith("efti:")) walk(type.slice("efti:".length), path);
    }
  };
  walk("SupplyChainConsignment", "");
  return rows;
}

async function countryCodes(): Promise<string[]> {
  const text = await readFile(
    join(
      XSD_DIRECTORY,
      "codes/ISO_ISOTwo-letterCountryCode_SecondEdition2006.xsd",
    ),
    "utf8",
  );
  return [...text.matchAll(/<xsd:enumeration value="([A-Z]{2})"/g)]
    .map((match) => match[1] as string)
    .sort();
}

/** The text of src/domain/efti/schema-facts.generated.ts. */
export async function schemaFactsSource(): Promise<string> {
  const rows = await elementRows();
  const lines = rows.map((row) => {
    const { path, ...facts } = row;
    return `  ${JSON.stringify(path)}: ${JSON.stringify(facts)},`;
  });
  return [
    "// Generated by `npm run efti:facts` (scripts/efti-schema-facts.ts) from",
    "// vendor/efti/xsd/consignment-common.xsd and its code lists: do not edit.",
    "// test/efti/schema-facts.test.ts checks that it matches the XSD.",
    "",
    "/** What the common data set's XSD says of an element the export may write. */",
    "export interface ElementFacts {",
    "  /** Its eFTI id (eFTI…, or ASBIE… for an aggregate). */",
    "  efti: string;",
    "  /** In characters: the shorter of the data set's format and the XSD type's limit. */",
    "  maxLength?: number;",
    "  /** Whether the element may be repeated (maxOccurs unbounded). */",
    "  repeats: boolean;",
    "  /** Its status per subset (M, O, C, SI for an aggregate, ...); absent: not in it. */",
    "  subsets: Partial<Record<SubsetId, string>>;",
    "}",
    "",
    "/** The subsets a gate may ask for (subsetId), as the XSD names them. */",
    `export const SUBSET_IDS = ${JSON.stringify(SUBSETS)} as const;`,
    "export type SubsetId = (typeof SUBSET_IDS)[number];",
    "",
    `/** Every element that ${TABLE_SUBSETS.join(" or ")} names, by its path under \`consignment\`. */`,
    "export const ELEMENTS: Readonly<Record<string, ElementFacts>> = {",
    ...lines,
    "};",
    "",
    "/** The country codes the schema accepts (ISO 3166-1, second edition 2006). */",
    `export const COUNTRY_CODES: ReadonlySet<string> = new Set(${JSON.stringify(
      (await countryCodes()).join(" "),
    )}.split(" "));`,
    "",
  ].join("\n");
}
