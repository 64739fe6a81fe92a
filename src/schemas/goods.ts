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
  });
