// How our values fit the common data set's limits: every export is valid,
// and nothing is lost without docs/efti.md "Over-long values" saying where
// it went. A text too long for a repeatable element is split over several;
// one too long for a single element is cut, and its whole value kept in an
// `information` line; a weight with too many digits is rounded, and kept
// exact in an `information` line.
import { MEASURE_TOTAL_DIGITS } from "./codes";
import { ELEMENTS, type ElementFacts } from "./schema-facts.generated";
import { leaf, type XmlElement } from "./xml";

/** The XSD's facts of the element at `path` under `consignment`; every path written has them. */
export function factsOf(path: string): ElementFacts {
  const facts = ELEMENTS[path];
  if (!facts) throw new Error(`${path} is not in the schema facts' table`);
  return facts;
}

const nameOf = (path: string): string => path.slice(path.lastIndexOf("/") + 1);

/** `value` in runs of at most `size` characters (code points: the XSD's count), in order. */
function inChunks(value: string, size: number): string[] {
  const characters = [...value];
  const chunks: string[] = [];
  for (let start = 0; start < characters.length; start += size) {
    chunks.push(characters.slice(start, start + size).join(""));
  }
  return chunks;
}

const length = (value: string): number => [...value].length;

/** What has no element of its own, or did not fit one: a label and the value, whole. */
export interface Note {
  label: string;
  value: string;
}

/**
 * `value` at the repeatable element `path`: one element when it fits, else
 * consecutive elements of at most the limit each, which read in order give
 * it back.
 */
export function splitText(path: string, value: string): XmlElement[] {
  const { maxLength, repeats } = factsOf(path);
  if (!repeats || maxLength === undefined) {
    throw new Error(`${path} is not a repeatable text`);
  }
  return inChunks(value, maxLength).map((chunk) => leaf(nameOf(path), chunk));
}

/**
 * `value` at the single element `path`: cut to its limit when longer, the
 * whole value then noted under `label`.
 */
export function cutText(
  path: string,
  value: string,
  label: string,
  notes: Note[],
): XmlElement {
  const { maxLength } = factsOf(path);
  if (maxLength === undefined) throw new Error(`${path} has no length limit`);
  if (length(value) <= maxLength) return leaf(nameOf(path), value);
  notes.push({ label, value });
  return leaf(nameOf(path), [...value].slice(0, maxLength).join(""));
}

/**
 * Notes as `information` lines: `label: value`, or, when that is longer than
 * the element's limit, `label (i/n): ` and the value's i-th part.
 */
export function informationLines(notes: readonly Note[]): XmlElement[] {
  const { maxLength } = factsOf("information");
  if (maxLength === undefined) throw new Error("information has no limit");
  return notes.flatMap(({ label, value }) => {
    const whole = `${label}: ${value}`;
    if (length(whole) <= maxLength) return [leaf("information", whole)];
    // The longest prefix, of part n of n, leaves the room for every part.
    for (let parts = 2; ; parts++) {
      const room = maxLength - length(`${label} (${parts}/${parts}): `);
      const chunks = inChunks(value, room);
      if (chunks.length <= parts) {
        return chunks.map((chunk, index) =>
          leaf(
            "information",
            `${label} (${index + 1}/${chunks.length}): ${chunk}`,
          ),
        );
      }
    }
  });
}

/**
 * A positive decimal string (at most 15 integer digits and 6 decimals, our
 * contract) within types:MeasureValue's 16 digits: rounded half up to the
 * decimals that fit when it has more digits, trailing zeros dropped.
 */
export function fittedMeasure(value: string): {
  value: string;
  exact: boolean;
} {
  const [whole = "", decimals = ""] = value.split(".");
  const keep = MEASURE_TOTAL_DIGITS - whole.length;
  if (decimals.length <= keep) return { value, exact: true };
  const scaled = BigInt(whole + decimals.slice(0, keep));
  const roundedUp = Number(decimals[keep]) >= 5 ? scaled + 1n : scaled;
  // At least one decimal is kept: the whole part has at most 15 digits.
  const digits = roundedUp.toString().padStart(keep + 1, "0");
  const rounded = `${digits.slice(0, -keep)}.${digits.slice(-keep)}`.replace(
    /\.?0+$/,
    "",
  );
  return { value: rounded, exact: false };
}
