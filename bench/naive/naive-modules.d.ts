// src/pdf's renderer as the module swap of swap.ts loads it.
declare module "*/render-document.ts?naive" {
  export const renderDocumentPdf: typeof import("../../src/pdf/render-document").renderDocumentPdf;
}
