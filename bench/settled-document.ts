// A document issued hours ago, past its deletion window and its margin
// (src/domain/windows.ts), written into the local state of a running
// `npm start` by the service's own issuing code (its row, its R2 object and
// the object's metadata), so that `npm run bench:http` can measure the QR
// download a link gets for the rest of its life (from R2, then from the edge
// cache). `npm start` can only issue documents now: their links stay on the
// D1 path for three hours.
import { join } from "node:path";
import { getPlatformProxy } from "wrangler";
import {
  issueDocument,
  pdfObjectKey,
} from "../src/domain/documents/issue-document";
import { qrUrl } from "../src/domain/documents/links";
import { renderDocumentPdf } from "../src/pdf/render-document";
import { documentRequestSchema } from "../src/schemas/document-request";
import { createServices } from "../src/services";

const ISSUED_AGO_MS = 4 * 60 * 60 * 1000;

/** `work` on the bindings of the running service's local state. */
async function withServiceState<T>(
  stateDir: string,
  work: (env: Env, caches: { default: Cache }) => Promise<T>,
): Promise<T> {
  const proxy = await getPlatformProxy<Env>({
    configPath: "wrangler.toml",
    persist: { path: join(stateDir, "v3") },
  });
  try {
    return await work(proxy.env, proxy.caches as unknown as { default: Cache });
  } finally {
    await proxy.dispose();
  }
}

/** The QR link of a `body` document issued ISSUED_AGO_MS ago by `credential`. */
export const issueSettledDocument = (
  stateDir: string,
  baseUrl: string,
  credential: { credential_id: string; organization_id: string },
  body: unknown,
): Promise<{ uuid: string; url: string }> =>
  withServiceState(stateDir, async (env, caches) => {
    const afterwards: Promise<unknown>[] = [];
    const clock = { now: () => Date.now() - ISSUED_AGO_MS };
    const services = {
      ...createServices(env, {
        clock,
        renderPdf: renderDocumentPdf,
        edgeCache: caches.default,
      }),
      baseUrl,
      requestId: "bench-settled-document",
      background: (_task: string, work: Promise<unknown>) => {
        afterwards.push(work);
      },
    };
    const document = await issueDocument(
      services,
      {
        id: credential.credential_id,
        organizationId: credential.organization_id,
        environment: "test",
        rateLimitPerMinute: null,
        expiresAt: null,
        documentLocale: "es",
      },
      documentRequestSchema.parse(body),
    );
    await Promise.all(afterwards);
    return { uuid: document.uuid, url: await qrUrl(services, document) };
  });

/**
 * Removes the document's PDF object from R2: its QR link then answers 200
 * only from the edge cache, which proves that a run measured cache hits.
 */
export const removeStoredPdf = (stateDir: string, uuid: string) =>
  withServiceState(stateDir, (env) => env.PDFS.delete(pdfObjectKey(uuid)));
