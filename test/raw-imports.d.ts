// A file's text, as Vite imports it with `?raw` (the vendored gate API of
// test/helpers/gate-contract.ts).
declare module "*.yaml?raw" {
  const text: string;
  export default text;
}
