import {
  type DocumentRequest,
  splitRequest,
} from "../../schemas/document-request";
import type { DryRunResult } from "../../schemas/document-result";
import type { Credential } from "../authenticate";
import type { Services } from "../services";
import { planIssue, renderNewVersion } from "./issue-document";
import { documentWarnings } from "./warnings";

/**
 * What a create of `request` would issue, without issuing it (docs/api.md,
 * Dry run): its normalized data and the PDF it would have, rendered as the
 * create renders it (so DOCUMENT_TOO_LARGE too). Nothing is written and
 * nothing is read beyond the fonts: neither the reference nor a demo
 * token's document count is checked, nor a time-stamping authority asked.
 */
export async function dryRunDocument(
  services: Services,
  credential: Credential,
  request: DocumentRequest,
): Promise<DryRunResult> {
  const { data } = splitRequest(request);
  const plan = planIssue(services, credential, data.reference);
  const pdf = await renderNewVersion(services, credential, data, plan, {
    dryRun: true,
  });
  return {
    data,
    pdf: { pages: pdf.pages, size_bytes: pdf.bytes.byteLength },
    ...documentWarnings(data, plan.createdAt),
  };
}
