// Emoji sequences (UTS #51): what an emoji font may draw as one glyph.

const ELEMENT = String.raw`(?:\p{Regional_Indicator}{2}|\p{Emoji}(?:\uFE0F?\u20E3|\uFE0F|\p{Emoji_Modifier}|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;

/** An emoji with what modifies it (skin tone, keycap, tags), flags, joined by ZWJ. */
const SEQUENCE = new RegExp(`${ELEMENT}(?:\\u200D${ELEMENT})*`, "gu");

/** A stretch of text: an emoji sequence of two code points or more, or anything else. */
export interface TextPart {
  text: string;
  sequence: boolean;
}

/** `text` cut around its emoji sequences; a lone emoji is no sequence. */
export function emojiSequences(text: string): TextPart[] {
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
