// A consignment reduced to the elements of given subsets, as the XSD's
// annotations assign them (schema-facts.generated.ts), and the identifier
// document a gate registers.
import { COMMON_NAMESPACE, IDENTIFIER_NAMESPACE } from "./codes";
import { factsOf } from "./fit";
import { SUBSET_IDS, type SubsetId } from "./schema-facts.generated";
import { type XmlElement, xmlDocument } from "./xml";

/**
 * The subsets every deployment serves to gates: the control document's
 * (ES01) and the identifiers. The others' requirements are not what the
 * control document collects: served only where configured.
 */
export const SUBSETS_SERVED_ALWAYS = [
  "ES01",
  "identifier",
] as const satisfies readonly SubsetId[];

/** The subsets a deployment may serve besides (EFTI_EXTRA_SUBSETS): ES02 to ES05. */
export const EXTRA_SUBSETS = SUBSET_IDS.filter(
  (subset) => !(SUBSETS_SERVED_ALWAYS as readonly SubsetId[]).includes(subset),
);

/**
 * `element` (at `path`) with only the descendants that one of `subsets`
 * names; an aggregate stays when something under it does. Null when
 * nothing does.
 */
function kept(
  element: XmlElement,
  path: string,
  subsets: readonly SubsetId[],
): XmlElement | null {
  const { subsets: statuses } = factsOf(path);
  if (!subsets.some((subset) => statuses[subset] !== undefined)) return null;
  if (!element.children) return element;
  const children = keptChildren(element.children, `${path}/`, subsets);
  return children.length > 0 ? { ...element, children } : null;
}

const keptChildren = (
  children: readonly XmlElement[],
  prefix: string,
  subsets: readonly SubsetId[],
): XmlElement[] =>
  children
    .map((child) => kept(child, `${prefix}${child.name}`, subsets))
    .filter((child) => child !== null);

/** The consignment `root` with only the elements of `subsets` (ES01 for Spain's control document). */
export const subsetOf = (
  root: XmlElement,
  subsets: readonly SubsetId[],
): XmlElement => ({
  ...root,
  children: keptChildren(root.children ?? [], "", subsets),
});

/** The common data set's XML of a consignment or of its subset. */
export const consignmentXml = (root: XmlElement): string =>
  xmlDocument(root, COMMON_NAMESPACE);

// The identifier XSD requires a registration country for each means of
// transport and each piece of equipment: one whose country the code list
// lacks (the export left it out) cannot be identified by it.
const hasRegistrationCountry = (element: XmlElement): boolean =>
  !["usedTransportMeans", "usedTransportEquipment"].includes(element.name) ||
  (element.children ?? []).some(
    (child) => child.name === "registrationCountry",
  );

function withoutUnidentifiable(element: XmlElement): XmlElement | null {
  if (!hasRegistrationCountry(element)) return null;
  if (!element.children) return element;
  const children = element.children
    .map(withoutUnidentifiable)
    .filter((child) => child !== null);
  return children.length > 0 ? { ...element, children } : null;
}

/** The identifier subset of a consignment, as consignment-identifier.xsd has it. */
export function identifierXml(root: XmlElement): string {
  const identifier = withoutUnidentifiable(subsetOf(root, ["identifier"]));
  return identifier
    ? xmlDocument(identifier, IDENTIFIER_NAMESPACE)
    : withdrawnIdentifierXml();
}

/**
 * The identifier document of a consignment that no longer identifies
 * anything (its document deleted): a `consignment` with no element, valid
 * against consignment-identifier.xsd (every element of it is optional). A
 * gate registering it replaces what it held for the dataset with nothing a
 * vehicle or a date can be found by.
 */
export const withdrawnIdentifierXml = (): string =>
  xmlDocument({ name: "consignment", children: [] }, IDENTIFIER_NAMESPACE);
