import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { apiDocument } from "../../src/http/routes/openapi";
import { opsApiDocument } from "../../src/http/routes/ops-openapi";
import { text } from "../../src/schemas/text";

// The OpenAPI document states the printed-text rule as a pattern: it must
// accept exactly the texts the validator accepts, composition included.

const components = apiDocument().components.schemas as Record<
  string,
  { pattern?: string }
>;
const printedText = new RegExp(components.PrintedText?.pattern ?? "", "u");
const freeText = new RegExp(
  (components.DeleteRequest as { properties: { reason: { pattern: string } } })
    .properties.reason.pattern,
  "u",
);

const printed = text(0, 10_000);
const notPrinted = text(0, 10_000, { printed: false });

// Code points where the rule is sharpest: controls, combining marks,
// Hangul jamo that compose, compatibility ideographs that normalize to
// another, surrogate halves, private use, unassigned.
const tricky = fc.constantFrom(
  ..."\t\n\r\u0000\u0008\u000b\u001f\u007f\u0085\u00a0\u2028Aa0 ñÑ".split(""),
  "\u0300",
  "\u0326",
  "\u0345",
  "\u1100",
  "\u1161",
  "\u11a8",
  "\u212b",
  "\u2126",
  "\uf900",
  "\ufa6c",
  "\ufacf",
  "\u{2f800}",
  "\u{2fa1d}",
  "\ud800",
  "\udfff",
  "\ue000",
  "\u{f0000}",
  "\u0378",
  "\u{e0001}",
  "\u{1f600}",
  "\ufffd",
  "\ufeff",
);
const texts = fc.string({
  unit: fc.oneof(
    tricky,
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

describe("the printed-text patterns of the OpenAPI document", () => {
  it("accept exactly what the validators accept", () => {
    fc.assert(
      fc.property(texts, (value) => {
        expect(printedText.test(value)).toBe(printed.safeParse(value).success);
        expect(freeText.test(value)).toBe(notPrinted.safeParse(value).success);
      }),
      { numRuns: 5_000 },
    );
  });

  it("agree on every text that normalization changes, and on its decomposition", () => {
    const disagreements: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      const value = String.fromCodePoint(codePoint);
      const decomposed = value.normalize("NFD");
      if (value.normalize("NFC") === value && decomposed === value) continue;
      for (const each of [value, decomposed]) {
        if (printedText.test(each) !== printed.safeParse(each).success) {
          disagreements.push(codePoint.toString(16));
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});

/** Every `pattern` of an OpenAPI document, with where it is. */
function patternsOf(
  node: unknown,
  at = "#",
): { at: string; pattern: string }[] {
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "pattern" && typeof value === "string"
      ? [{ at, pattern: value }]
      : patternsOf(value, `${at}/${key}`),
  );
}

// What one of the engines that read the documents refuses: Python's `re`
// (Schemathesis, hypothesis) `\u{…}` and `\p{…}`; Rust's regex (the
// jsonschema-rs validator of Schemathesis) a surrogate, escaped or not; and
// both a surrogate pair written as two escapes, which only ECMA-262 joins.
const UNREAD_BY_SOME_ENGINE = [
  /\\u\{/,
  /\\[pP]\{/,
  /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/,
  /\\U/,
  /\\x\{/,
];

describe("the patterns of the OpenAPI documents", () => {
  it.each([
    ["the customers' document", apiDocument],
    ["the operations document", opsApiDocument],
  ])(
    "are written so that ECMA-262, Python and Rust engines read them alike: %s",
    (_name, document) => {
      const unread = patternsOf(document())
        .filter(
          ({ pattern }) =>
            !pattern.isWellFormed() ||
            UNREAD_BY_SOME_ENGINE.some((construct) => construct.test(pattern)),
        )
        .map(({ at, pattern }) => `${at}: ${pattern.slice(0, 60)}…`);
      expect(unread).toEqual([]);
    },
  );
});
