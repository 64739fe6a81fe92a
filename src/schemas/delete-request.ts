import * as z from "zod";
import { text } from "./text";

/**
 * The body of a deletion (docs/api.md, Deletion). A confirmation sent as false is a valid
 * body: the document rules answer it with a 409, not a 422.
 */
export const deleteRequestSchema = z.strictObject({
  // Kept in the audit trail, never printed.
  reason: text(1, 2000, { printed: false }),
  confirm_not_delivered: z.boolean(),
  confirm_not_used: z.boolean(),
});

export type DeleteRequest = z.output<typeof deleteRequestSchema>;
