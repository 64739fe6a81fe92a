import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AppDependencies, AppEnv } from "./env";
import {
  handleError,
  handleMethodNotAllowed,
  handleNotFound,
} from "./http/error-handler";
import { concretePathsFirst } from "./http/middleware/concrete-paths";
import { noStore } from "./http/middleware/no-store";
import { requestId } from "./http/middleware/request-id";
import { requestLog } from "./http/middleware/request-log";
import { securityHeaders } from "./http/middleware/security-headers";
import type { Operation } from "./http/operation";
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

/** What one Worker's app serves: operations, then routes that are not operations, by path. */
export interface Served {
  operations: readonly Operation[];
  // biome-ignore lint/suspicious/noExplicitAny: a route group declares the bindings it reads
  routes: readonly (readonly [path: string, routes: Hono<any>])[];
}

/** What every answer of a Worker's app goes through, outermost first. */
const everyAnswer = [requestId, requestLog, noStore, securityHeaders] as const;

/**
 * The HTTP application of a Worker (src/api-app.ts, src/edge-app.ts), the
 * same middleware and error answers for each. Authentication is attached
 * per route, after routing, so that an unknown path is a 404 and a wrong
 * method a 405 before any 401.
 */
export function createApp(dependencies: AppDependencies, served: Served) {
  const app = new Hono<AppEnv>();

  app.use(...everyAnswer);
  app.use(provideServices(dependencies));
  app.use(
    methodNotAllowed({ app, onMethodNotAllowed: handleMethodNotAllowed }),
    concretePathsFirst(app),
  );

  for (const operation of served.operations) {
    operation.serve(app);
  }
  for (const [path, routes] of served.routes) {
    app.route(path, routes);
  }

  app.notFound(handleNotFound);
  app.onError(handleError);
  return app;
}

/**
 * The answer to `failure` that happened outside a Worker's app (the edge
 * Worker handing a request to the API Worker), as the app answers its own:
 * the error body, a request id of its own in the log line and the answer,
 * `no-store` and the security headers.
 */
export function answerFailure(failure: unknown, request: Request, env: object) {
  const app = new Hono<AppEnv>();
  app.use(...everyAnswer);
  app.all("*", () => {
    throw failure;
  });
  app.onError(handleError);
  return app.fetch(request, env);
}
