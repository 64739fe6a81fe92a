import type { Context } from "hono";
import { configOf } from "../config";
import type { AppEnv } from "../env";

/** The most bytes a route reads of a request body (docs/api.md, Limits: 413). */
export type BodyLimit = (c: Context<AppEnv>) => number;

/** The public demo's limit, whoever calls. */
export const demoBodyLimit: BodyLimit = (c) =>
  configOf(c.env).maxBodyBytes.demo;

/** A real key's limit, or the demo one for a demo token. */
export const callerBodyLimit: BodyLimit = (c) => {
  const real =
    c.var.credential !== undefined && c.var.credential.environment !== "demo";
  return real ? configOf(c.env).maxBodyBytes.real : demoBodyLimit(c);
};

/** The operations API's limit: a real key's. */
export const opsBodyLimit: BodyLimit = (c) => configOf(c.env).maxBodyBytes.real;
