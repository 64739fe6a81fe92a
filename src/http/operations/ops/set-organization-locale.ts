import { setOrganizationLocale } from "../../../domain/operations/keys";
import { SUPPORT_SECRET } from "../../../openapi/security";
import {
  organizationLocaleSchema,
  organizationNamePath,
  setLocaleRequestSchema,
} from "../../../schemas/ops";
import { opsBodyLimit } from "../../body-limit";
import { requireSupport } from "../../middleware/require-support";
import { defineOperation } from "../../operation";
import { OPS_WITH_BODY, opsResponses } from "./ops-answers";

export const setOrganizationLocaleOperation = defineOperation({
  method: "put",
  path: "/ops/v1/organizations/{organization}/locale",
  params: organizationNamePath,
  body: {
    schema: setLocaleRequestSchema,
    limit: opsBodyLimit,
    examples: {
      catalan: {
        summary: "Labels in Catalan beside the Spanish",
        value: { document_locale: "ca" },
      },
    },
  },
  middleware: [requireSupport],
  handle: async (c, { params, body }) =>
    c.json(
      await setOrganizationLocale(
        c.var.services,
        params.organization,
        body.document_locale,
      ),
    ),
  doc: {
    operationId: "setOrganizationLocale",
    summary: "Set the PDF language of an organization's future documents",
    description:
      "Documents already issued keep the language they were printed in. 404 when no organization has that name.",
    tags: ["keys"],
    security: SUPPORT_SECRET,
    responses: opsResponses(
      200,
      "Set.",
      organizationLocaleSchema,
      OPS_WITH_BODY,
    ),
  },
});
