import type { Context, Env, Hono, MiddlewareHandler } from "hono";
import type * as z from "zod";
import type { AppEnv } from "../env";
import { notFound } from "../errors";
import type {
  BodyContract,
  OperationContract,
} from "../openapi/operation-contract";
import type { BodyLimit } from "./body-limit";
import { validate, validateJsonBody } from "./validate";

type Output<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;

/**
 * An operation the app serves, defined once: the router and the OpenAPI
 * documents (handed the operation table) both read it.
 */
export interface Operation extends OperationContract {
  serve(app: Hono<AppEnv>): void;
}

interface Input<Params, Query, Body> {
  params: Output<Params>;
  query: Output<Query>;
  body: Output<Body>;
}

type Spec<
  E extends Env,
  Params extends z.ZodObject | undefined,
  Query extends z.ZodObject | undefined,
  Body extends z.ZodType | undefined,
> = Omit<OperationContract, "params" | "query" | "body"> & {
  params?: Params;
  query?: Query;
  /** A JSON body, read under `limit`: 415, 413, 400, then 422. */
  body?: BodyContract & { schema: Body; limit: BodyLimit };
  /** The route's policy (authentication, limits), in the order of checks. */
  middleware?: MiddlewareHandler<E>[];
  handle(
    c: Context<E>,
    input: Input<Params, Query, Body>,
  ): Response | Promise<Response>;
};

/** Hono's spelling of a path template: `{uuid}` becomes `:uuid`. */
const routePath = (path: string): string => path.replace(/\{([^}]+)\}/g, ":$1");

/**
 * An operation from its one definition. Checks run in the contract's order
 * (docs/api.md): the route's middleware (401, 403, 429), the query (422),
 * the body (415, 413, 400, 422), then the path parameters (a document rule:
 * a path that cannot name a document is the same 404 as an unknown one).
 */
export function defineOperation<
  E extends AppEnv = AppEnv,
  Params extends z.ZodObject | undefined = undefined,
  Query extends z.ZodObject | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
>(spec: Spec<E, Params, Query, Body>): Operation {
  const { middleware = [], handle, ...contract } = spec;
  const serveOperation: MiddlewareHandler<AppEnv> = async (c) => {
    const params = spec.params?.safeParse(c.req.param());
    if (params?.success === false) throw notFound();
    const valid = (target: "query" | "json"): unknown =>
      c.req.valid(target as never);
    return handle(
      c as unknown as Context<E>,
      {
        params: params?.data,
        query: spec.query && valid("query"),
        body: spec.body && valid("json"),
      } as Input<Params, Query, Body>,
    );
  };
  // The middleware narrows the context (a credential once authenticated);
  // Hono chains them on the app's own environment.
  const handlers = [
    ...middleware,
    ...(spec.query ? [validate("query", spec.query)] : []),
    ...(spec.body?.schema
      ? [
          validateJsonBody(
            spec.body.schema,
            spec.body.limit,
            spec.body.optional,
          ),
        ]
      : []),
    serveOperation,
  ] as unknown as [MiddlewareHandler<AppEnv>];
  return {
    ...(contract as OperationContract),
    serve(app) {
      app.on(spec.method.toUpperCase(), routePath(spec.path), ...handlers);
    },
  };
}
