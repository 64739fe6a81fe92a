// What a fresh Worker isolate evaluates to issue a document: the renderer and
// the issuing step (bench/run.ts bundles this with esbuild, fonts as bytes),
// with the fallback fonts read from disk in R2's place.

export { diskFontSource } from "./disk-fonts";
export { benchRequest, largestRequest } from "./fixtures";
export { issueWithoutIo } from "./issue-step";
