import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppDependencies, AppEnv } from "./env";
import {
  handleError,
  handleMethodNotAllowed,
  handleNotFound,
} from "./http/error-handler";
import { noStore } from "./http/middleware/no-store";
import { requestId } from "./http/middleware/request-id";
import { requestLog } from "./http/middleware/request-log";
import { securityHeaders } from "./http/middleware/security-headers";
import { OPERATIONS } from "./http/operations";
import { OPS_OPERATIONS } from "./http/operations/ops";
import { openApiRoutes } from "./http/routes/openapi";
import { opsOpenApiRoutes } from "./http/routes/ops-openapi";
import { pageRoutes } from "./http/routes/pages";
import { requestServices } from "./services";

/** Puts the services of this request on the context, built from the bindings. */
const provideServices = (dependencies: AppDependencies) =>
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

/**
 * The HTTP application. Authentication is attached per route, after routing,
 * so that an unknown path is a 404 and a wrong method a 405 before any 401.
 */
export function createApp(dependencies: AppDependencies) {
  const app = new Hono<AppEnv>();

  app.use(requestId, requestLog, noStore, securityHeaders);
  app.use(provideServices(dependencies));
  app.use(
    methodNotAllowed({ app, onMethodNotAllowed: handleMethodNotAllowed }),
  );

  for (const operation of [...OPERATIONS, ...OPS_OPERATIONS]) {
    operation.serve(app);
  }
  // Not operations of the API: the documents themselves and the pages.
  app.route("/api/v1", openApiRoutes);
  app.route("/ops/v1", opsOpenApiRoutes);
  app.route("/", pageRoutes);

  app.notFound(handleNotFound);
  app.onError(handleError);
  return app;
}
