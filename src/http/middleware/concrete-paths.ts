import type { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { handleMethodNotAllowed } from "../error-handler";

/** The methods of each path without parameters, from the app's routes; GET brings HEAD. */
function methodsOfConcretePaths(app: Hono<AppEnv>): Map<string, string[]> {
  const methods = new Map<string, Set<string>>();
  for (const { method, path } of app.routes) {
    if (method === "ALL" || /[:*]/.test(path)) continue;
    const of = methods.get(path) ?? new Set<string>();
    of.add(method);
    if (method === "GET") of.add("HEAD");
    methods.set(path, of);
  }
  return new Map([...methods].map(([path, of]) => [path, [...of]]));
}

/**
 * A path without parameters answers only its own methods, as OpenAPI
 * matches a concrete path before a template: `PUT /api/v1/documents/validate`
 * is a 405 (Allow: POST), not `PUT /api/v1/documents/{uuid}` with the uuid
 * "validate". Hono's 405 does not say it, since that template has PUT.
 */
export const concretePathsFirst = (app: Hono<AppEnv>) => {
  // Read once the app has all its routes, at its first request.
  let concrete: Map<string, string[]> | undefined;
  return createMiddleware<AppEnv>(async (c, next) => {
    concrete ??= methodsOfConcretePaths(app);
    const methods = concrete.get(c.req.path);
    if (methods && !methods.includes(c.req.method)) {
      return handleMethodNotAllowed(c, methods);
    }
    await next();
  });
};
