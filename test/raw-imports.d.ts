// A file's text, as Vite imports it with `?raw` (the vendored gate API of
// test/helpers/gate-contract.ts, wrangler.toml's queue consumer in
// test/helpers/webhooks.ts).
declare module "*.yaml?raw" {
  const text: string;
  export default text;
}

declare module "*.toml?raw" {
  const text: string;
  export default text;
}
