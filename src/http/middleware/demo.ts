import { createMiddleware } from "hono/factory";
import {
  type DemoCounter,
  enforceDemoRateLimit,
  requireDemoEnabled,
} from "../../domain/demo/demo-limits";
import type { AppEnv } from "../../env";
import { clientIp } from "../client-ip";

/** The demo's routes answer only while the demo is on. */
export const demoEnabled = createMiddleware<AppEnv>(async (c, next) => {
  requireDemoEnabled(c.var.services.demo);
  await next();
});

/** Counts the request against the demo limits of this IP's network on `counter` (tokens, documents). */
export const demoIpLimit = (counter: DemoCounter) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await enforceDemoRateLimit(c.var.services, clientIp(c.req.raw), counter);
    await next();
  });
