import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import { openDatabase } from "./db/client";
import type { AppDependencies, AppEnv } from "./env";
import {
  handleError,
  handleMethodNotAllowed,
  handleNotFound,
} from "./http/error-handler";
import { noStore } from "./http/middleware/no-store";
import { requestId } from "./http/middleware/request-id";
import { requestLog } from "./http/middleware/request-log";
import { documentRoutes } from "./http/routes/documents";

/**
 * The HTTP application. Authentication is attached per route, after routing,
 * so that an unknown path is a 404 and a wrong method a 405 before any 401.
 */
export function createApp(dependencies: AppDependencies) {
  const app = new Hono<AppEnv>();

  app.use(requestId, requestLog, noStore);
  app.use(async (c, next) => {
    c.set("clock", dependencies.clock);
    c.set("db", openDatabase(c.env.DB));
    await next();
  });
  app.use(
    methodNotAllowed({ app, onMethodNotAllowed: handleMethodNotAllowed }),
  );

  app.route("/api/v1/documents", documentRoutes);

  app.notFound(handleNotFound);
  app.onError(handleError);
  return app;
}
