import { parseAccept } from "hono/utils/accept";

type Ranges = ReturnType<typeof parseAccept>;

/**
 * The quality an Accept header gives a media type: that of the most specific
 * range matching it (RFC 9110, 12.5.1), 0 when none does.
 */
function quality(ranges: Ranges, type: string): number {
  const [main] = type.split("/");
  let specificity = 0;
  let q = 0;
  for (const range of ranges) {
    const name = range.type.toLowerCase();
    const rank =
      name === type ? 3 : name === `${main}/*` ? 2 : name === "*/*" ? 1 : 0;
    if (rank > specificity) {
      specificity = rank;
      q = range.q;
    }
  }
  return q;
}

/**
 * True when the client ranks an HTML page above JSON, as a phone's browser
 * does (`text/html,…,*\/*;q=0.8`); no Accept, `*\/*` or a tie keep JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  return quality(ranges, "text/html") > quality(ranges, "application/json");
}
