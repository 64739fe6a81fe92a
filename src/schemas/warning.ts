import * as z from "zod";
import { component } from "./component";

// A warning: the request was carried out, but something in it looks wrong
// (docs/api.md, Warnings). Each code with its one message.

const WARNING_MESSAGES = {
  TRANSPORT_DATE_PAST:
    "transport_date is before today at the origin: a control document is due before its transport starts. Issued anyway: a past transport may need its document corrected.",
} as const;

type WarningCode = keyof typeof WARNING_MESSAGES;

const warningSchema = component(
  "Warning",
  z
    .strictObject({
      code: z.enum(Object.keys(WARNING_MESSAGES) as [WarningCode]),
      field: z.string().nullable().meta({
        description: "The dotted path of the field it is about, or null.",
      }),
      message: z.string().meta({ description: "English, for people." }),
    })
    .meta({ description: "Act on `code`; `message` may change." }),
);

export type Warning = z.output<typeof warningSchema>;

/** The `warnings` of a result: absent when there is none. */
export const warningsField = z.array(warningSchema).min(1).optional().meta({
  description:
    "What looks wrong in a request that was carried out anyway (docs/api.md, Warnings); absent when nothing does.",
});

export const warning = (code: WarningCode, field: string | null): Warning => ({
  code,
  field,
  message: WARNING_MESSAGES[code],
});
