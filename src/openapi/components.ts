import * as z from "zod";
import {
  componentRefTo,
  components,
  DOCUMENTED_AS,
} from "../schemas/component";

/** The reference to a schema registered as a component (src/schemas/component.ts). */
export function componentRef(schema: z.ZodType) {
  const name = components.get(schema)?.id;
  if (!name) throw new Error("The OpenAPI document names no such schema");
  return componentRefTo(name);
}

/**
 * JSON Schema (2020-12, OpenAPI 3.1's dialect) of every component, as zod
 * sees its input: what a client may send, and a looser but true description
 * of what the service answers, whose schemas have no transforms.
 */
export function componentSchemas(): Record<string, object> {
  const { schemas } = z.toJSONSchema(components, {
    io: "input",
    target: "draft-2020-12",
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ jsonSchema }) => {
      const variants = jsonSchema[DOCUMENTED_AS];
      if (variants === undefined) return;
      const { description } = jsonSchema;
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      Object.assign(jsonSchema, { description, oneOf: variants });
    },
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema, $id, ...schema }]) => [
      id,
      schema,
    ]),
  );
}

/** A schema as JSON Schema, inlined where it is used (the operations API's). */
export function inlineSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema, ...rest } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
  });
  return rest;
}
