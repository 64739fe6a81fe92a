import fc from "fast-check";

// Values from a JSON Schema (2020-12) of the OpenAPI document, for the
// keywords the document's requests use. Rules across an object's fields
// (`oneOf`/`anyOf` of partial objects, `dependentRequired`) are met by
// choosing a branch and generating the object it allows; `if`/`else` rules
// on fields' patterns (`allOf`), by keeping the objects that meet them. Where
// the document shows a value (its example, a schema's `examples`), it is
// mixed in, so that valid ES tax ids and plates, which a pattern cannot
// spell, come up too.

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  dependentRequired?: Record<string, string[]>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  not?: JsonSchema;
  allOf?: JsonSchema[];
  if?: JsonSchema;
  else?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  examples?: unknown[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
}

type Resolve = (ref: string) => JsonSchema;

const isNull = (schema: JsonSchema | undefined): boolean =>
  schema?.type === "null";

/** Whether `value` has the `required` fields of `schema`, and its strings match their patterns. */
const meets = (schema: JsonSchema, value: Record<string, unknown>): boolean =>
  (schema.required ?? []).every((name) => name in value) &&
  Object.entries(schema.properties ?? {}).every(([name, rule]) => {
    const field = value[name];
    return (
      typeof field !== "string" ||
      !rule.pattern ||
      new RegExp(rule.pattern, "u").test(field)
    );
  });

/** Whether `value` meets every `if`/`else` rule of `allOf`. */
const meetsConditions = (
  rules: JsonSchema[],
  value: Record<string, unknown>,
): boolean =>
  rules.every(
    (rule) =>
      (rule.if !== undefined && meets(rule.if, value)) ||
      meets(rule.else ?? {}, value),
  );

const codePoints = (value: string): number => [...value].length;

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const { minLength = 0, maxLength = 10_000 } = schema;
  if (schema.format === "date") {
    return fc
      .date({
        min: new Date("0000-01-01T00:00:00Z"),
        max: new Date("9999-12-31T00:00:00Z"),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10));
  }
  if (schema.format === "uri") {
    return fc
      .webUrl({ withQueryParameters: true, withFragments: true })
      .filter((url) => codePoints(url) <= maxLength);
  }
  const text = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern, "u"))
    : fc.string({ unit: "binary", minLength, maxLength: 40 });
  return text.filter((value) => {
    const length = codePoints(value);
    return length >= minLength && length <= maxLength;
  });
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? schema.exclusiveMinimum ?? -1e9;
  const high = Math.min(
    schema.maximum ?? schema.exclusiveMaximum ?? 1e9,
    Number.MAX_SAFE_INTEGER,
  );
  const inRange = (value: number) =>
    value >= low &&
    value <= high &&
    value !== schema.exclusiveMinimum &&
    value !== schema.exclusiveMaximum;
  if (integer) return fc.integer({ min: low, max: high }).filter(inRange);
  // A power of ten: a whole part and at most that many decimals.
  const decimals = schema.multipleOf ? -Math.log10(schema.multipleOf) : 3;
  return fc
    .tuple(
      fc.integer({ min: Math.ceil(low), max: Math.floor(high) }),
      fc.integer({ min: 0, max: 10 ** decimals - 1 }),
    )
    .map(([whole, fraction]) =>
      Number(`${whole}.${String(fraction).padStart(decimals, "0")}`),
    )
    .filter(inRange);
}

/** What a branch of given fields (`not: {type: "null"}`) refuses: them null or absent. */
const negated = (branch: JsonSchema): JsonSchema => ({
  properties: Object.fromEntries(
    Object.entries(branch.properties ?? {}).map(([name, rule]) => [
      name,
      rule.not ? { type: "null" } : {},
    ]),
  ),
});

/** `base` narrowed by a branch that sets some of its fields to null or not null. */
function narrowed(base: JsonSchema, branch: JsonSchema): JsonSchema {
  const properties = { ...base.properties };
  for (const [name, rule] of Object.entries(branch.properties ?? {})) {
    const field = properties[name] ?? {};
    const options = field.anyOf ?? [field];
    const kept = options.filter((option) =>
      isNull(rule) ? isNull(option) : rule.not ? !isNull(option) : true,
    );
    properties[name] =
      kept.length === 1 ? (kept[0] as JsonSchema) : { anyOf: kept };
  }
  return {
    ...base,
    properties,
    required: [...(base.required ?? []), ...(branch.required ?? [])],
    dependentRequired: branch.dependentRequired,
  };
}

function objectOf(
  schema: JsonSchema,
  resolve: Resolve,
  example: unknown,
): fc.Arbitrary<unknown> {
  const branches = schema.oneOf ?? schema.anyOf;
  // Branches that are whole schemas of their own (components): one of them.
  if (branches?.every((branch) => branch.$ref)) {
    return fc.oneof(
      ...branches.map((branch) => arbitraryOf(branch, resolve, example)),
    );
  }
  if (branches) {
    const { oneOf, anyOf, ...base } = schema;
    // A `oneOf` branch holds alone: the others' fields are left out.
    const alone = (index: number) =>
      (oneOf ?? [])
        .filter((_, other) => other !== index)
        .reduce((narrow, other) => narrowed(narrow, negated(other)), base);
    return fc.oneof(
      ...branches.map((branch, index) =>
        objectOf(narrowed(alone(index), branch), resolve, example),
      ),
    );
  }
  const properties = schema.properties ?? {};
  if (Object.keys(properties).length === 0) {
    return fc.dictionary(
      fc.string({ maxLength: 8 }),
      fc.jsonValue({ maxDepth: 2 }),
      {
        maxKeys: 4,
      },
    );
  }
  const shown = (example ?? {}) as Record<string, unknown>;
  // Fields that come together (dependentRequired): all present or all absent.
  const together = Object.keys(schema.dependentRequired ?? {});
  const record = (required: string[]) =>
    fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([name, field]) => [
          name,
          arbitraryOf(field, resolve, shown[name]),
        ]),
      ),
      { requiredKeys: required },
    );
  const required = schema.required ?? [];
  const enough = (value: object) =>
    Object.keys(value).length >= (schema.minProperties ?? 0);
  const objects =
    together.length === 0
      ? record(required).filter(enough)
      : fc.oneof(
          record([...required, ...together]),
          record(required).map((value) => {
            const rest: Record<string, unknown> = { ...value };
            for (const name of together) delete rest[name];
            return rest;
          }),
        );
  const conditions = schema.allOf ?? [];
  return conditions.length === 0
    ? objects
    : objects.filter((value) =>
        meetsConditions(conditions, value as Record<string, unknown>),
      );
}

/** Values `schema` accepts; `example` is the document's value at this place, if any. */
export function arbitraryOf(
  schema: JsonSchema,
  resolve: Resolve,
  example?: unknown,
): fc.Arbitrary<unknown> {
  if (schema.$ref) {
    const { $ref, ...besides } = schema;
    return arbitraryOf({ ...resolve($ref), ...besides }, resolve, example);
  }
  const shown = isNull(schema)
    ? []
    : [...(example === undefined ? [] : [example]), ...(schema.examples ?? [])];
  const generated = generatedOf(schema, resolve, example);
  return shown.length === 0
    ? generated
    : fc.oneof(generated, fc.constantFrom(...shown));
}

function generatedOf(
  schema: JsonSchema,
  resolve: Resolve,
  example: unknown,
): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf && !schema.properties) {
    return fc.oneof(
      ...schema.anyOf.map((branch) => arbitraryOf(branch, resolve, example)),
    );
  }
  const types = [schema.type ?? "object"].flat();
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case "null":
          return fc.constant(null);
        case "boolean":
          return fc.boolean();
        case "string":
          return stringOf(schema);
        case "integer":
        case "number":
          return numberOf(schema, type === "integer");
        case "array":
          // Short arrays: the bounds are checked by their own tests.
          return fc.array(arbitraryOf(schema.items ?? {}, resolve), {
            minLength: schema.minItems ?? 0,
            maxLength: Math.min(
              schema.maxItems ?? 3,
              (schema.minItems ?? 0) + 2,
            ),
          });
        default:
          return objectOf(schema, resolve, example);
      }
    }),
  );
}
