import type { z } from "zod";
import type { ErrorItem, ValidationCode } from "../errors";

// Rules that zod cannot name by itself attach the contract's code to a custom
// issue: `ctx.addIssue({ code: "custom", params: { code }, message })`.
interface CustomParams {
  code?: ValidationCode;
}

/** Dotted path of an issue (`shipper.tax_id`), or null at the top level. */
const fieldOf = (path: PropertyKey[]): string | null =>
  path.length === 0 ? null : path.map(String).join(".");

const childField = (path: PropertyKey[], key: string): string =>
  fieldOf([...path, key]) ?? key;

export const REQUIRED_MESSAGE = "This field is required.";

// zod's type names, in the words of JSON.
const TYPE_NAMES: Record<string, string> = {
  object: "an object",
  record: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  boolean: "true or false",
  null: "null",
};

const describeType = (expected: string): string =>
  TYPE_NAMES[expected] ?? expected;

const jsonType = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value;

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Turns zod's issues into the contract's 422 items, one per broken field;
 * `input` is what was validated, to tell a missing field from a wrong one.
 */
export function toErrorItems(
  issues: z.core.$ZodIssue[],
  input: unknown,
): ErrorItem[] {
  return issues.flatMap((issue): ErrorItem[] => {
    const field = fieldOf(issue.path);
    switch (issue.code) {
      case "unrecognized_keys":
        return issue.keys.map((key) => ({
          field: childField(issue.path, key),
          code: "UNKNOWN_FIELD",
          message: `Unknown field \`${key}\`.`,
        }));
      // A union fails as a whole only when the value has none of its types;
      // an enum, when the value is none of its values.
      case "invalid_type":
      case "invalid_union":
      case "invalid_value": {
        const value = valueAt(input, issue.path);
        if (value === undefined) {
          return [{ field, code: "REQUIRED", message: REQUIRED_MESSAGE }];
        }
        if (issue.code === "invalid_value") {
          const types = new Set(issue.values.map(jsonType));
          if (types.has(jsonType(value))) {
            return [{ field, code: "INVALID_VALUE", message: issue.message }];
          }
          const expected = [...types].map(describeType).join(" or ");
          return [
            { field, code: "INVALID_TYPE", message: `Expected ${expected}.` },
          ];
        }
        return [
          {
            field,
            code: "INVALID_TYPE",
            message:
              issue.code === "invalid_type"
                ? `Expected ${describeType(issue.expected)}.`
                : issue.message,
          },
        ];
      }
      case "too_small":
        return [{ field, code: "TOO_SHORT", message: issue.message }];
      case "too_big":
        return [{ field, code: "TOO_LONG", message: issue.message }];
      case "custom": {
        const params = issue.params as CustomParams | undefined;
        return [
          {
            field,
            code: params?.code ?? "INVALID_VALUE",
            message: issue.message,
          },
        ];
      }
      default:
        return [{ field, code: "INVALID_FORMAT", message: issue.message }];
    }
  });
}
