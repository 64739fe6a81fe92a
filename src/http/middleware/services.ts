import { createMiddleware } from "hono/factory";
import type { AppDependencies, AppEnv } from "../../env";
import { requestServices } from "../../services";

/** Puts the services of this request on the context, built from the bindings. */
export const provideServices = (dependencies: AppDependencies) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set(
      "services",
      requestServices(c.env, dependencies, {
        id: c.var.requestId,
        url: c.req.url,
        waitUntil: (promise) => c.executionCtx.waitUntil(promise),
      }),
    );
    await next();
  });
