// What a fresh Worker isolate evaluates to issue a document: the renderer and
// the issuing step (bench/run.ts bundles this with esbuild, fonts as bytes).

export { fullRequest, largestRequest } from "./fixtures";
export { issueWithoutIo } from "./issue-step";
