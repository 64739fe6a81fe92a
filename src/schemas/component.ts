import * as z from "zod";

/**
 * The schemas an API description names (`#/components/schemas/{id}`), each
 * registered where it is defined; any other schema is inlined where used.
 */
export const components = z.registry<{ id: string }>();

/** `schema`, registered under the component name `id`. */
export function component<Schema extends z.ZodType>(
  id: string,
  schema: Schema,
): Schema {
  components.add(schema, { id });
  return schema;
}

/** The reference to the component `id` in an API description. */
export const componentRefTo = (id: string) => ({
  $ref: `#/components/schemas/${id}`,
});

/** The metadata key under which `documentedAs` hands the OpenAPI document its variants. */
export const DOCUMENTED_AS = "x-documented-as";

/**
 * Metadata for a parser that accepts one of several shapes through rules of
 * its own (for the contract's errors): the API description shows it as
 * `oneOf` the registered components of those shapes instead of its own
 * looser object (src/openapi/components.ts).
 */
export function documentedAs(...variants: z.ZodType[]) {
  return {
    [DOCUMENTED_AS]: variants.map((variant) => {
      const id = components.get(variant)?.id;
      if (!id) throw new Error("Only components can document a schema");
      return componentRefTo(id);
    }),
  };
}
