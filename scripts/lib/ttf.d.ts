// Node's side of wrangler's Data rule for fonts (see font-modules.ts); the
// Worker's own declaration is generated into worker-configuration.d.ts.
declare module "*.ttf" {
  const bytes: ArrayBuffer;
  export default bytes;
}
