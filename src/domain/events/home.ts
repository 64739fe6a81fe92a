import { homeShard } from "../shard-routing";

/**
 * The route of a credential's events, deliveries and endpoints: its home
 * shard. Only real keys have events, and a real key's home does not depend
 * on its environment, so the credential's id is enough.
 */
export const eventsHome =
  (credentialId: string) =>
  <T>(shards: readonly T[]): T =>
    homeShard(shards, realKey(credentialId));

/** A real key, by its id alone: all its home shard depends on. */
export const realKey = (credentialId: string) => ({
  id: credentialId,
  environment: "live" as const,
});
