import { createApiApp } from "../../src/api-app";
import { createEdgeWorker } from "../../src/edge-app";
import type { AppDependencies, EdgeEnv } from "../../src/env";

/**
 * The two Workers as `npm start` and production compose them, in one test
 * Worker: the edge Worker in front, its service binding `API` calling the
 * API Worker's app on the same bindings. So every path is tested through
 * the edge Worker's routing, as a caller reaches it.
 */
export function createService(dependencies: AppDependencies) {
  const edge = createEdgeWorker(dependencies);
  const api = createApiApp(dependencies);
  return {
    fetch(request: Request, env: Env, context: ExecutionContext) {
      const API = {
        fetch: (input: RequestInfo | URL, init?: RequestInit) =>
          api.fetch(new Request(input, init), env, context),
      } as unknown as Fetcher;
      const edgeEnv = Object.create(env, { API: { value: API } }) as EdgeEnv;
      return edge.fetch(request, edgeEnv, context);
    },
  };
}
