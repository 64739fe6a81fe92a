import { DurableObject } from "cloudflare:workers";

/**
 * Serializes the requests that use one reference of one organization and
 * environment (one object per reference). Filled in by the lifecycle issue.
 */
export class ReferenceLock extends DurableObject<Env> {}
