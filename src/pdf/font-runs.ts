import type { PDFFont } from "@cantoo/pdf-lib";
import {
  codePointName,
  type FontChoice,
  fontFor,
} from "../font-coverage/coverage";
import { SHAPING } from "../font-coverage/fallback-families";
import {
  type Unit as BidiUnit,
  type Piece,
  RIGHT_TO_LEFT_LETTER,
  visualPieces,
} from "./bidi";
import { emojiSequences } from "./emoji";
import { type FallbackFonts, ligatureOf } from "./fonts";

/** A style's document font and the fallback fonts of the document. */
export interface StyleFonts {
  font: PDFFont;
  fallbacks: FallbackFonts;
}

/** Text that one font prints, as that font's layout takes it. */
export interface FontRun {
  font: PDFFont;
  text: string;
  /** Its rank in the line's logical order, in which readers expect text to come. */
  logical: number;
  /** What a reader extracts instead, when the glyph stands for less or more (👍 for 👍🏽). */
  actualText?: string;
}

/** Whether the document font draws every character: most text, found without splitting. */
function allInBase(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const codePoint = text.codePointAt(i) ?? 0;
    if (codePoint > 0xffff) i++;
    if (
      (codePoint < 0x20 || codePoint >= 0x7f) &&
      fontFor(codePoint) !== "base"
    )
      return false;
  }
  return true;
}

const MARK = /\p{M}/u;

type Unit = BidiUnit<FontChoice>;

function choiceOf(character: string): FontChoice {
  const codePoint = character.codePointAt(0) ?? 0;
  const choice = fontFor(codePoint);
  if (!choice) throw new Error(`No font draws ${codePointName(codePoint)}.`);
  return choice;
}

/**
 * An emoji sequence: one glyph of the emoji font when it has one, else its
 * base emoji alone (no box for the skin tone, ZWJ or keycap it cannot draw);
 * either way a reader extracts the whole sequence.
 */
function sequenceUnit(sequence: string, fonts: StyleFonts): Unit {
  const emoji = fonts.fallbacks.get("emoji");
  const glyph = emoji && ligatureOf(emoji, sequence);
  if (glyph) {
    // The glyph of 👍🏽 is the thumb's: it stands for less than the sequence.
    const whole = String.fromCodePoint(...glyph) === sequence;
    return {
      text: sequence,
      font: "emoji",
      ...(whole ? {} : { actualText: sequence }),
    };
  }
  const [base = ""] = sequence;
  return { text: base, font: choiceOf(base), actualText: sequence };
}

/** Each character with the marks that its font also draws, and each emoji sequence, as units. */
function unitsOf(text: string, fonts: StyleFonts): Unit[] {
  const units: Unit[] = [];
  for (const part of emojiSequences(text)) {
    if (part.sequence) {
      units.push(sequenceUnit(part.text, fonts));
      continue;
    }
    for (const character of part.text) {
      const font = choiceOf(character);
      const last = units.at(-1);
      if (MARK.test(character) && last?.font === font && !last.actualText) {
        last.text += character;
      } else {
        units.push({ text: character, font });
      }
    }
  }
  return units;
}

/** A piece of one font and level as the run its font takes. */
function runOf(
  { units, level }: Piece<Unit>,
  fonts: StyleFonts,
): Omit<FontRun, "logical"> {
  const [first] = units;
  const choice = first?.font ?? "base";
  const visual = units.map((unit) => unit.text).join("");
  // Arabic's layout joins its letters and reverses them itself.
  const reversesItself =
    choice !== "base" &&
    SHAPING[choice] === "opentype" &&
    RIGHT_TO_LEFT_LETTER.test(visual);
  const text =
    level % 2 === 1 && reversesItself
      ? units
          .map((unit) => unit.text)
          .reverse()
          .join("")
      : visual;
  const run = { font: pdfFont(choice, fonts), text };
  return first?.actualText ? { ...run, actualText: first.actualText } : run;
}

/**
 * One line of printable text as runs of one font each, left to right: each
 * character in the first font that draws it (src/font-coverage/coverage.ts),
 * emoji sequences as one glyph, in the order of the Unicode Bidirectional
 * Algorithm (bidi.ts), each run knowing its place in the logical order.
 */
export function fontRuns(text: string, fonts: StyleFonts): FontRun[] {
  if (allInBase(text)) return [{ font: fonts.font, text, logical: 0 }];
  return visualPieces(unitsOf(text, fonts), mirrored).map((piece) => ({
    ...runOf(piece, fonts),
    logical: piece.first,
  }));
}

/** A bracket in right-to-left text as its mirror, read back as typed; as typed when its font lacks the mirror. */
const mirrored = (unit: Unit, character: string): Unit =>
  choiceOf(character) === unit.font
    ? { text: character, font: unit.font, actualText: unit.text }
    : unit;

function pdfFont(choice: FontChoice, fonts: StyleFonts): PDFFont {
  if (choice === "base") return fonts.font;
  const font = fonts.fallbacks.get(choice);
  // Issuing loads every fallback font that the data needs before rendering.
  if (!font) throw new Error(`The ${choice} fallback font was not given.`);
  return font;
}
