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
