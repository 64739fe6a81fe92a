import * as z from "zod";
import { component } from "./component";

// The answer of `GET …/efti` (docs/api.md, eFTI data): a document's eFTI
// datasets, one consignment per shipment (docs/efti.md).

const eftiDatasetSchema = component(
  "EftiDataset",
  z.strictObject({
    shipment: z.int().positive().meta({
      description:
        "The shipment's number in the document, 1 for the first (a single-shipment document has only 1).",
    }),
    dataset_id: z.uuid().meta({
      description:
        "The consignment's eFTI dataset id: a UUID derived from the document's uuid and the shipment's number, never changing (a correction is a new document, with new ids).",
      examples: ["be109dfd-a0fc-8ecd-81e1-2015fd02f7a8"],
    }),
    url: z.url().meta({
      description:
        "Where the owning key downloads the consignment as eFTI XML (`application/xml`), within the document's read window.",
    }),
  }),
);

export const eftiDatasetListSchema = component(
  "EftiDatasetList",
  z.strictObject({ data: z.array(eftiDatasetSchema) }),
);

export type EftiDatasetList = z.output<typeof eftiDatasetListSchema>;
