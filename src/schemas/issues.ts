import type { z } from "zod";
import type { ValidationCode } from "../errors";

/** An issue carrying the contract's code, for `check` callbacks. */
export function contractIssue(
  code: ValidationCode,
  message: string,
  input: unknown,
  path?: PropertyKey[],
): z.core.$ZodRawIssue {
  return {
    code: "custom",
    params: { code },
    message,
    input,
    ...(path ? { path } : {}),
  };
}

/**
 * Whether a rule across fields can be judged: the object was parsed as one
 * and none of the fields it reads has an error of its own.
 */
export const fieldsAreValid =
  (...fields: string[]) =>
  (payload: z.core.ParsePayload): boolean =>
    typeof payload.value === "object" &&
    payload.value !== null &&
    !payload.issues.some((issue) => fields.includes(String(issue.path?.[0])));
