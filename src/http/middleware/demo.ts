import type { Context } from "hono";
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

/**
 * Counts the request against this IP's demo limits on `counter` (tokens,
 * documents), when `applies` says the request is a demo one.
 */
export const demoIpLimit = <E extends AppEnv>(
  counter: DemoCounter,
  applies: (c: Context<E>) => boolean = () => true,
) =>
  createMiddleware<E>(async (c, next) => {
    if (applies(c)) {
      await enforceDemoRateLimit(c.var.services, clientIp(c.req.raw), counter);
    }
    await next();
  });
