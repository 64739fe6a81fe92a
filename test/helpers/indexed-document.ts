import { dereference, type Schema } from "@cfworker/json-schema";
import { apiDocument } from "../../src/http/routes/openapi";

type Responses = Record<string, { content?: Record<string, object> }>;

/**
 * A copy of the API's OpenAPI document that @cfworker/json-schema can index,
 * and the lookup of its schemas. The validator reads every object it walks
 * as a schema, and an `id` in one as that schema's URI: the answers'
 * examples, where an endpoint's or an event's `id` repeats from answer to
 * answer, are left out of the copy.
 */
export function indexedApiDocument<Document>() {
  const document = structuredClone(apiDocument());
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const { responses = {} } = operation as { responses?: Responses };
      for (const { content = {} } of Object.values(responses)) {
        for (const media of Object.values(content)) {
          delete (media as { example?: unknown }).example;
          delete (media as { examples?: unknown }).examples;
        }
      }
    }
  }
  return {
    document: document as unknown as Document,
    lookup: dereference(document as unknown as Schema),
  };
}
