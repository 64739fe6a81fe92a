import * as z from "zod";
import { REFERENCE_PATTERN } from "./reference";

// As issued: lower case. An upper-case spelling names no document.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A document's uuid in a path (`/api/v1/documents/{uuid}`, `/d/{uuid}`). */
export const uuidPath = z.object({
  uuid: z.string().regex(UUID).meta({ format: "uuid" }),
});

/** A document's own reference in a path (`/api/v1/documents/ref/{reference}`). */
export const referencePath = z.object({
  reference: z.string().max(120).regex(REFERENCE_PATTERN).meta({
    description:
      "The document's own reference; one that cannot be a reference is a 404.",
  }),
});

/**
 * An eFTI dataset id in a path (`…/efti/{dataset_id}`), as the list gives it:
 * lower case, like a document's uuid.
 */
export const datasetIdPath = {
  dataset_id: z.string().regex(UUID).meta({
    format: "uuid",
    description:
      "A dataset id of the document, as its eFTI list gives it; any other (another document's, malformed) is a 404.",
  }),
};
