import * as z from "zod";
import { positiveDecimal, weightKilograms } from "./decimal";
import { optional, text } from "./text";

const alternativeMeasureSchema = z.strictObject({
  value: positiveDecimal,
  unit: text(1, 255),
});

const isGiven = (value: unknown): boolean =>
  value !== undefined && value !== null;

/** JSON Schema of "`field` is given": present and not null. */
const given = (field: string) => ({
  required: [field],
  properties: { [field]: { not: { type: "null" } } },
});

/** Goods (docs/api.md, Goods): a weight or, when it is hard to know, another measure. */
export const goodsSchema = z
  .strictObject({
    description: text(1, 2000),
    weight_kg: optional(weightKilograms),
    alternative_measure: optional(alternativeMeasureSchema),
    // Absent from the normalized data when not sent (null too), so that the
    // bodies without it keep their stored form and request hash.
    dangerous_goods: z.boolean().nullish().meta({
      description:
        "Whether the goods are dangerous (ADR). Not printed: it is eFTI data (the dangerous goods indicator of the shipment's consignment, docs/efti.md). Not sent or null: the goods are not declared dangerous.",
    }),
  })
  .check(
    z.refine(
      (goods) =>
        isGiven(goods.weight_kg) !== isGiven(goods.alternative_measure),
      {
        message: "Send exactly one of weight_kg and alternative_measure.",
        params: { code: "EXACTLY_ONE_REQUIRED" },
        // Presence is judged on the input, whatever else is wrong with it.
        when: (payload) =>
          typeof payload.value === "object" && payload.value !== null,
      },
    ),
  )
  // For the OpenAPI document: the refinement above is custom.
  .meta({
    oneOf: [given("weight_kg"), given("alternative_measure")],
    description:
      "Exactly one of weight_kg and alternative_measure (422 EXACTLY_ONE_REQUIRED otherwise).",
  })
  .transform(
    ({
      dangerous_goods,
      ...goods
    }): typeof goods & { dangerous_goods?: boolean } =>
      dangerous_goods == null ? goods : { ...goods, dangerous_goods },
  );
