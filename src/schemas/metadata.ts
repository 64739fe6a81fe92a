import * as z from "zod";
import { contractIssue } from "./issues";

const MAX_BYTES = 16 * 1024;
const MAX_DEPTH = 8;

/** Nesting depth, counting the metadata object itself as level 1. */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(child));
    if (deepest >= MAX_DEPTH) break;
  }
  return 1 + deepest;
}

/**
 * The caller's own data (spec 2.9): kept and returned unchanged, never
 * printed; at most 16 KiB as compact UTF-8 JSON and 8 levels deep.
 */
export const metadataSchema = z
  .record(z.string(), z.unknown())
  .check((ctx) => {
    if (depthOf(ctx.value) > MAX_DEPTH) {
      ctx.issues.push(
        contractIssue(
          "METADATA_TOO_DEEP",
          `Must be nested at most ${MAX_DEPTH} levels deep, counting metadata itself.`,
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
  .meta({
    description:
      "Your own data, returned unchanged and never printed: at most 16 KiB as compact UTF-8 JSON and 8 levels deep.",
  });
