import { createMiddleware } from "hono/factory";

// Every API answer may carry document data or secrets: none may be cached.
export const noStore = createMiddleware(async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store, private");
});
