// Reads an exported document back, as a reader of the eFTI data would: the
// text of the elements at a path, in document order.
import { DOMParser, type Element } from "@xmldom/xmldom";

const childrenNamed = (parent: Element, name: string): Element[] =>
  Array.from(parent.childNodes).filter(
    (node): node is Element =>
      node.nodeType === 1 && (node as Element).localName === name,
  );

/** The parsed document's root, after checking its namespace. */
export function rootOf(xml: string, namespace: string): Element {
  const root = new DOMParser().parseFromString(xml, "application/xml")
    .documentElement as unknown as Element;
  if (root.namespaceURI !== namespace) {
    throw new Error(`namespace ${root.namespaceURI}, not ${namespace}`);
  }
  return root;
}

/** The elements at `path` (`consignor/postalAddress/cityName`) under `root`. */
export function elementsAt(root: Element, path: string): Element[] {
  let found = [root];
  for (const name of path.split("/")) {
    found = found.flatMap((element) => childrenNamed(element, name));
  }
  return found;
}

/** The text of each element at `path`. */
export const textsAt = (root: Element, path: string): string[] =>
  elementsAt(root, path).map((element) => element.textContent ?? "");

/** The one element's text at `path`, or undefined. */
export function textAt(root: Element, path: string): string | undefined {
  const texts = textsAt(root, path);
  if (texts.length > 1) throw new Error(`${path}: ${texts.length} elements`);
  return texts[0];
}
