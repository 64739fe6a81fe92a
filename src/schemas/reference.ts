import * as z from "zod";
import { contractIssue } from "./issues";
import { lengthIssue } from "./text";

// docs/api.md, Document body: no trailing newline. Without the `m` flag, JavaScript's
// `$` never matches before a final newline, so this is the same rule.
export const REFERENCE_PATTERN = /^[A-Za-z0-9-]+$/;

/** The customer's reference: 1..120 ASCII letters, digits and hyphens. */
export const referenceSchema = z
  .string()
  .check((ctx) => {
    const tooLongOrShort = lengthIssue(ctx.value, 1, 120);
    if (tooLongOrShort) {
      ctx.issues.push(tooLongOrShort);
    } else if (!REFERENCE_PATTERN.test(ctx.value)) {
      ctx.issues.push(
        contractIssue(
          "INVALID_FORMAT",
          "May contain only ASCII letters, digits and hyphens.",
          ctx.value,
        ),
      );
    }
  })
  .meta({
    minLength: 1,
    maxLength: 120,
    pattern: REFERENCE_PATTERN.source,
    description:
      "Your reference: unique per organization and environment, makes retries safe, never released.",
    examples: ["PED-2026-0001"],
  });
