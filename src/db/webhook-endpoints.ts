import { type Column, eq, or, type SQL, sql } from "drizzle-orm";
import type { EventType } from "../schemas/event";
import { webhookEndpoints } from "./schema";

/** The `events` of an endpoint that wants every type. */
export const ALL_EVENT_TYPES = "*";

/** Holds for an enabled endpoint that wants events of `type` (a ping goes only to the endpoint tested). */
export const subscribesTo = (type: EventType | Column): SQL =>
  sql`${webhookEndpoints.enabled} = 1 AND ${or(
    eq(webhookEndpoints.eventTypes, [ALL_EVENT_TYPES]),
    sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.eventTypes}) WHERE value = ${type})`,
  )}`;
