import * as z from "zod";

/** Query of the QR image route: the image format, SVG unless asked otherwise. */
export const qrImageQuerySchema = z.object({
  format: z
    .enum(["svg", "png"], { message: "Must be `svg` or `png`." })
    .default("svg"),
});

export type QrImageFormat = z.output<typeof qrImageQuerySchema>["format"];
