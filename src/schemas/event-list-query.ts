import * as z from "zod";
import { EVENT_TYPES, eventIdSchema } from "./event";
import { limitParameter, singleValued } from "./list-query";

/** Query of the events list; unknown parameters are ignored. */
export const eventListQuerySchema = z.object({
  limit: limitParameter(10),
  starting_after: singleValued(
    eventIdSchema.optional().meta({
      description:
        "The `id` of the last event of the page before: this page lists the older ones. An id that is none of your events still kept is 422 `INVALID_VALUE`.",
    }),
  ),
  type: singleValued(
    z
      .enum(EVENT_TYPES, {
        message: `Must be one of ${EVENT_TYPES.map((type) => `\`${type}\``).join(", ")}.`,
      })
      .optional()
      .meta({ description: "Only events of this type." }),
  ),
  document_uuid: singleValued(
    z
      .uuid({ message: "Must be a document's uuid." })
      .optional()
      .meta({ description: "Only the events of this document." }),
  ),
});

export type EventListQuery = z.output<typeof eventListQuerySchema>;
