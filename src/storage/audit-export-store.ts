import { serviceUnavailable } from "../errors";

/**
 * The daily exports of the gates' audit trail in R2 (docs/efti.md "Audit
 * trail"), under `efti-audit/` of the PDFS bucket, which a bucket lock rule
 * keeps (docs/operations.md): each object written once, never replaced.
 */
export interface AuditExportStore {
  /** Whether the object of `key` is written. */
  has(key: string): Promise<boolean>;
  /** Writes `body` at `key` unless an object is there: true when this call wrote it. */
  putOnce(key: string, body: string): Promise<boolean>;
}

const AUDIT_EXPORT_PREFIX = "efti-audit/";

export function createAuditExportStore(bucket: R2Bucket): AuditExportStore {
  return {
    async has(key) {
      try {
        return (await bucket.head(`${AUDIT_EXPORT_PREFIX}${key}`)) !== null;
      } catch (error) {
        throw serviceUnavailable("pdf_store", error);
      }
    },
    async putOnce(key, body) {
      try {
        // Only where no object is: R2 answers null when one is there.
        const written = await bucket.put(`${AUDIT_EXPORT_PREFIX}${key}`, body, {
          onlyIf: { etagDoesNotMatch: "*" },
          httpMetadata: { contentType: "application/jsonl" },
        });
        return written !== null;
      } catch (error) {
        throw serviceUnavailable("pdf_store", error);
      }
    },
  };
}
