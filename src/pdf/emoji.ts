// Emoji sequences (UTS #51): what an emoji font may draw as one glyph.

const ELEMENT = String.raw`(?:\p{Regional_Indicator}{2}|\p{Emoji}(?:\uFE0F?\u20E3|\uFE0F|\p{Emoji_Modifier}|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;

/** An emoji with what modifies it (skin tone, keycap, tags), flags, joined by ZWJ. */
const SEQUENCE = new RegExp(`${ELEMENT}(?:\\u200D${ELEMENT})*`, "gu");

/**
 * What every sequence of two code points or more holds: a flag's regional
 * indicators, a skin tone, a variation selector, a keycap, a tag or a ZWJ.
 */
const SEQUENCE_PART =
  /\p{Regional_Indicator}|\p{Emoji_Modifier}|\uFE0F|\u20E3|\u200D|[\u{E0020}-\u{E007F}]/u;

/** A stretch of text: an emoji sequence of two code points or more, or anything else. */
export interface TextPart {
  text: string;
  sequence: boolean;
}

/** `text` cut around its emoji sequences; a lone emoji is no sequence. */
export function emojiSequences(text: string): TextPart[] {
  // Most lines hold no sequence: one test instead of a search for emoji.
  if (!SEQUENCE_PART.test(text)) return text ? [{ text, sequence: false }] : [];
  const parts: TextPart[] = [];
  let end = 0;
  for (const match of text.matchAll(SEQUENCE)) {
    const [found] = match;
    if ([...found].length < 2) continue;
    if (match.index > end) {
      parts.push({ text: text.slice(end, match.index), sequence: false });
    }
    parts.push({ text: found, sequence: true });
    end = match.index + found.length;
  }
  if (end < text.length) parts.push({ text: text.slice(end), sequence: false });
  return parts;
}
