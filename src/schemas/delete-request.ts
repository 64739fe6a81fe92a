import * as z from "zod";
import { component } from "./component";
import { text } from "./text";

/**
 * The body of a deletion (docs/api.md, Deletion). A confirmation sent as false is a valid
 * body: the document rules answer it with a 409, not a 422.
 */
export const deleteRequestSchema = component(
  "DeleteRequest",
  z.strictObject({
    // Kept in the audit trail, never printed.
    reason: text(1, 2000, { printed: false }),
    confirm_not_delivered: z.boolean().meta({
      description:
        "That the goods were not delivered: false is answered 409 DOCUMENT_ALREADY_DELIVERED.",
    }),
    confirm_not_used: z.boolean().meta({
      description:
        "That the document was not used: false is answered 409 DOCUMENT_ALREADY_USED.",
    }),
  }),
);

export type DeleteRequest = z.output<typeof deleteRequestSchema>;
