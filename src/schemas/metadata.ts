import * as z from "zod";
import { contractIssue } from "./issues";

const MAX_BYTES = 16 * 1024;
const MAX_DEPTH = 8;

type JsonObject = Record<string, unknown>;

const isContainer = (value: unknown): value is object =>
  typeof value === "object" && value !== null;

const isJsonObject = (value: unknown): value is JsonObject =>
  isContainer(value) && !Array.isArray(value);

/**
 * Whether `value` nests objects or arrays more than `maxDepth` levels deep,
 * counting `value` itself as level 1. One level at a time, without recursion,
 * and never looking below `maxDepth + 1`: a body nested a hundred thousand
 * levels deep costs no stack.
 */
function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  let level = isContainer(value) ? [value] : [];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > maxDepth) return true;
    level = level.flatMap((container) =>
      Object.values(container).filter(isContainer),
    );
  }
  return false;
}

/**
 * The caller's own data (docs/api.md, Document body): kept and returned unchanged, never
 * printed; at most 16 KiB as compact UTF-8 JSON and 8 levels deep. The
 * object is the one parsed from the body, every own key kept whatever its
 * name: zod's record would rebuild it and drop a `__proto__` key.
 */
export const metadataSchema = z
  .unknown()
  .check((ctx) => {
    if (!isJsonObject(ctx.value)) {
      ctx.issues.push(
        contractIssue("INVALID_TYPE", "Expected an object.", ctx.value),
      );
    } else if (nestsDeeperThan(ctx.value, MAX_DEPTH)) {
      ctx.issues.push(
        contractIssue(
          "METADATA_TOO_DEEP",
          `Must be nested at most ${MAX_DEPTH} levels deep, counting metadata itself (422 METADATA_TOO_LARGE, METADATA_TOO_DEEP otherwise).`,
          ctx.value,
        ),
      );
    } else if (
      new TextEncoder().encode(JSON.stringify(ctx.value)).byteLength > MAX_BYTES
    ) {
      ctx.issues.push(
        contractIssue(
          "METADATA_TOO_LARGE",
          `Must be at most ${MAX_BYTES} bytes as compact JSON.`,
          ctx.value,
        ),
      );
    }
  })
  .transform((value) => value as JsonObject)
  .meta({
    type: "object",
    description: `Your own data, returned unchanged and never printed: at most ${MAX_BYTES / 1024} KiB (${MAX_BYTES} bytes) as compact UTF-8 JSON and ${MAX_DEPTH} levels deep, counting metadata itself.`,
  });
