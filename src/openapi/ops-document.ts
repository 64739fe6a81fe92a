import { OPS_OPERATIONS } from "../http/operations/ops";
import { pathItems } from "./document";
import {
  inlineSchema,
  OPS_SECURITY_SCHEMES,
  SUPPORT_SECRET,
} from "./ops-responses";

function buildOpsDocument() {
  return {
    openapi: "3.1.0",
    info: {
      title: "DeCA operations API",
      version: "1.0.0",
      description:
        "For the service's support and its deploy tooling, never for customers: key management, audit trails and the data steps of a deploy or a shard change, run inside the Worker. Every call needs the support secret and is recorded. See docs/operations.md.",
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
    ],
    security: SUPPORT_SECRET,
    paths: pathItems(OPS_OPERATIONS, (schema) => inlineSchema(schema, "input")),
    components: { securitySchemes: OPS_SECURITY_SCHEMES },
  };
}

let built: ReturnType<typeof buildOpsDocument> | undefined;

/** The operations API's OpenAPI 3.1 document, built once per isolate. */
export function opsOpenApiDocument() {
  built ??= buildOpsDocument();
  return built;
}
