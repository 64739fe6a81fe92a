import { oncePer } from "../once-per";
import { inlineSchema } from "./components";
import { CONTACT, LICENSE, pathItems } from "./document";
import type { OperationContract } from "./operation-contract";
import { OPS_SECURITY_SCHEMES, SUPPORT_SECRET } from "./security";

// The operations API's own description (docs/operations.md), apart from the
// customers' document: its schemas are inlined where they are used.

function buildOpsDocument(operations: readonly OperationContract[]) {
  return {
    openapi: "3.1.0",
    info: {
      title: "DeCA operations API",
      version: "1.0.0",
      description:
        "For the service's support and its deploy tooling, never for customers: key management, audit trails and the data steps of a deploy or a shard change, run inside the Worker. Every call needs the support secret and is recorded: a call whose record cannot be written answers 503 and does nothing. Without `SUPPORT_KEYRING`, every path answers 404. See docs/operations.md.",
      contact: CONTACT,
      license: LICENSE,
    },
    servers: [{ url: "/" }],
    tags: [
      { name: "keys", description: "API keys and organizations." },
      { name: "documents", description: "A document's audit trail." },
      {
        name: "shards",
        description: "Data steps of a deploy or a shard change.",
      },
      { name: "audit", description: "The trail of this API's own calls." },
      {
        name: "efti",
        description: "The registrations with the eFTI gate.",
      },
      { name: "scheduled", description: "The cron's work, run on demand." },
    ],
    security: SUPPORT_SECRET,
    paths: pathItems(operations, inlineSchema),
    components: { securitySchemes: OPS_SECURITY_SCHEMES },
  };
}

/** The operations API's OpenAPI 3.1 document, of the operations handed in. */
export const opsOpenApiDocument = oncePer(buildOpsDocument);
