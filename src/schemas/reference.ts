import * as z from "zod";
import { contractIssue } from "./issues";
import { lengthIssue } from "./text";

// docs/api.md, Document body: no trailing newline. Without the `m` flag, JavaScript's
// `$` never matches before a final newline, so this is the same rule.
export const REFERENCE_PATTERN = /^[A-Za-z0-9-]+$/;
const MAX_LENGTH = 120;

/** The customer's reference: 1..120 ASCII letters, digits and hyphens. */
export const referenceSchema = z
  .string()
  .check((ctx) => {
    const tooLongOrShort = lengthIssue(ctx.value, 1, MAX_LENGTH);
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
    maxLength: MAX_LENGTH,
    pattern: REFERENCE_PATTERN.source,
    description:
      "Your reference, case-sensitive: unique per organization and environment, makes retries safe, never released, even after deletion. On a correction it is the new version's reference, which must differ from the corrected document's (422 INVALID_VALUE otherwise).",
    examples: ["PED-2026-0001"],
  });
