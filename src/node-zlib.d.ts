// The one Node module the Worker imports, for its native deflate
// (src/pdf/deflate.ts): workerd implements it under wrangler.toml's
// nodejs_compat. Declared alone so that the rest of src/ keeps to the
// Workers runtime's types.
declare module "node:zlib" {
  export function deflateSync(data: Uint8Array): Uint8Array;
}
