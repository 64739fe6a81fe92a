// A small XML writer: the export builds a tree of elements, filters it by
// subset, then writes it. No library: the Worker bundles this, and the
// consignment needs elements, attributes and text only.

/** An element: text content or child elements, never both (no mixed content). */
export interface XmlElement {
  name: string;
  attributes?: Readonly<Record<string, string>>;
  text?: string;
  children?: readonly XmlElement[];
}

/** A leaf element holding `text`. */
export const leaf = (
  name: string,
  text: string,
  attributes?: Record<string, string>,
): XmlElement => (attributes ? { name, text, attributes } : { name, text });

/** An element holding `children`, or nothing when none is given. */
export const parent = (
  name: string,
  children: readonly (XmlElement | readonly XmlElement[] | null)[],
): XmlElement[] => {
  const given = children.flat().filter((child) => child !== null);
  return given.length > 0 ? [{ name, children: given }] : [];
};

// A carriage return would reach a reader as a line feed (XML end-of-line
// handling), and tab and line feed in an attribute as spaces: escaped, all
// of them come back as sent.
const TEXT_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\r": "&#13;",
};
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': "&quot;",
  "\t": "&#9;",
  "\n": "&#10;",
};
const escapeText = (value: string): string =>
  value.replace(/[&<>\r]/g, (character) => TEXT_ESCAPES[character] as string);
const escapeAttribute = (value: string): string =>
  value.replace(
    /[&<>"\r\n\t]/g,
    (character) => ATTRIBUTE_ESCAPES[character] as string,
  );

function write(element: XmlElement, indent: string, out: string[]): void {
  const attributes = Object.entries(element.attributes ?? {})
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join("");
  if (element.children && element.children.length > 0) {
    out.push(`${indent}<${element.name}${attributes}>\n`);
    for (const child of element.children) write(child, `${indent}  `, out);
    out.push(`${indent}</${element.name}>\n`);
  } else if (element.text !== undefined && element.text !== "") {
    out.push(
      `${indent}<${element.name}${attributes}>${escapeText(element.text)}</${element.name}>\n`,
    );
  } else {
    out.push(`${indent}<${element.name}${attributes}/>\n`);
  }
}

/** `root` as a UTF-8 XML document, its elements in the default namespace `namespace`. */
export function xmlDocument(root: XmlElement, namespace: string): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(
    {
      ...root,
      attributes: { xmlns: namespace, ...root.attributes },
    },
    "",
    out,
  );
  return out.join("");
}
