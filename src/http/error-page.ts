import { toBase64 } from "../base64";

// The page a person's browser gets when a QR link leads to no PDF
// (docs/api.md, QR links): Spanish first, English beneath, nothing to load.

const STYLE =
  "body{font:1.125rem/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#111}[lang=en]{color:#444}";

interface Wording {
  es: { title: string; text: string };
  en: { title: string; text: string };
}

const UNAVAILABLE: Wording = {
  es: {
    title: "Documento no disponible",
    text: "Este enlace no lleva a ningún documento disponible.",
  },
  en: {
    title: "Document not available",
    text: "This link does not lead to an available document.",
  },
};

const TRY_AGAIN: Wording = {
  es: {
    title: "Documento no disponible",
    text: "Inténtelo de nuevo en un momento.",
  },
  en: { title: "Document not available", text: "Try again in a moment." },
};

const page = ({ es, en }: Wording): string =>
  `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${es.title} / ${en.title}</title><style>${STYLE}</style></head><body><h1>${es.title}</h1><p>${es.text}</p><div lang="en"><h2>${en.title}</h2><p>${en.text}</p></div></body></html>`;

const PAGES = { unavailable: page(UNAVAILABLE), tryAgain: page(TRY_AGAIN) };

/** The page for an error status: a refusal that may pass (429, 5xx) says to try again. */
export const errorPage = (status: number): string =>
  status === 429 || status >= 500 ? PAGES.tryAgain : PAGES.unavailable;

let policy: Promise<string> | undefined;

/** Nothing but the page's own style, by its hash: no script, no request anywhere. */
export function errorPagePolicy(): Promise<string> {
  policy ??= crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(STYLE))
    .then((digest) => {
      const hash = toBase64(new Uint8Array(digest));
      return [
        "default-src 'none'",
        `style-src 'sha256-${hash}'`,
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join("; ");
    });
  return policy;
}
