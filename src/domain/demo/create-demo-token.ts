import { toIsoTime } from "../../clock";
import { insertOrganizationWithCredential } from "../../db/credentials";
import type { DemoTokenResult } from "../../schemas/demo-token-result";
import type { DocumentLocale } from "../../schemas/document-locale";
import { newCredential } from "../api-keys";
import type { DocumentServices } from "../documents/services";
import { newId } from "../random";
import { directoryShard } from "../shard-routing";

/** A demo session lasts 24 hours from its token's issue (docs/api.md, The demo). */
const DEMO_SESSION_MS = 24 * 60 * 60 * 1000;

/**
 * Issues a demo token bound to the requesting IP. Each session gets an
 * organization of its own, so that its references and documents never meet
 * another visitor's; the token, like every key, is stored only as a hash.
 */
export async function createDemoToken(
  services: Pick<DocumentServices, "shards" | "clock">,
  request: { clientIp: string; locale: DocumentLocale },
): Promise<DemoTokenResult> {
  const now = services.clock.now();
  const expiresAt = now + DEMO_SESSION_MS;
  const organizationId = newId("org");
  const { key: token, row } = await newCredential({
    organizationId,
    environment: "demo",
    createdAt: now,
    expiresAt,
    requesterIp: request.clientIp,
  });
  await insertOrganizationWithCredential(
    directoryShard(services.shards),
    {
      id: organizationId,
      name: `Demo session ${organizationId}`,
      documentLocale: request.locale,
      createdAt: now,
    },
    row,
  );
  return {
    token,
    expires_at: toIsoTime(expiresAt),
    document_locale: request.locale,
  };
}
