// A document issued hours ago, past its deletion window and its margin
// (src/domain/windows.ts), written into the local state of a running
// `npm start` by the service's own issuing code (its row, its R2 object and
// the object's metadata), so that `npm run bench:http` can measure the QR
// download a link gets for the rest of its life. `npm start` can only issue
// documents now: their links stay on the D1 path for three hours.
import { join } from "node:path";
import { getPlatformProxy } from "wrangler";
import { issueDocument } from "../src/domain/documents/issue-document";
import { qrUrl } from "../src/domain/documents/links";
import { renderDocumentPdf } from "../src/pdf/render-document";
import { documentRequestSchema } from "../src/schemas/document-request";
import { createServices } from "../src/services";

const ISSUED_AGO_MS = 4 * 60 * 60 * 1000;

/** The QR link of a `body` document issued ISSUED_AGO_MS ago by `credential`. */
export async function issueSettledDocument(
  stateDir: string,
  baseUrl: string,
  credential: { credential_id: string; organization_id: string },
  body: unknown,
): Promise<string> {
  const proxy = await getPlatformProxy<Env>({
    configPath: "wrangler.toml",
    persist: { path: join(stateDir, "v3") },
  });
  const afterwards: Promise<unknown>[] = [];
  try {
    const clock = { now: () => Date.now() - ISSUED_AGO_MS };
    const services = {
      ...createServices(proxy.env, {
        clock,
        renderPdf: renderDocumentPdf,
        edgeCache: proxy.caches.default,
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
    return await qrUrl(services, document);
  } finally {
    await proxy.dispose();
  }
}
