import { describe, expect, it } from "vitest";
import { CATALOGS, LANGUAGE_TAGS, MESSAGE_KEYS } from "../../src/pdf/i18n";
import { DOCUMENT_LOCALES } from "../../src/schemas/document-locale";

describe("the message catalogs", () => {
  it.each(DOCUMENT_LOCALES)("%s has every label, none empty", (locale) => {
    const messages: Record<string, string> = CATALOGS[locale];
    expect(Object.keys(messages).sort()).toEqual([...MESSAGE_KEYS].sort());
    for (const key of MESSAGE_KEYS) {
      expect(messages[key]?.trim(), `${locale}.${key}`).not.toBe("");
    }
  });

  it("say 'not valid' exactly as docs/api.md, The demo, lists it", () => {
    expect(
      Object.fromEntries(
        DOCUMENT_LOCALES.map((locale) => [locale, CATALOGS[locale].notValid]),
      ),
    ).toEqual({
      es: "SIN VALIDEZ",
      ca: "SENSE VALIDESA",
      "ca-valencia": "SENSE VALIDESA",
      gl: "SEN VALIDEZ",
      eu: "BALIOGABEA",
      en: "NOT VALID",
      "pt-pt": "SEM VALIDADE",
      fr: "SANS VALIDITÉ",
    });
  });

  it.each(DOCUMENT_LOCALES)("%s cites Orden FOM/2861/2012", (locale) => {
    expect(CATALOGS[locale].legalBasis).toContain("FOM/2861/2012");
  });

  it("are translations, not copies of one another", () => {
    for (const a of DOCUMENT_LOCALES) {
      for (const b of DOCUMENT_LOCALES) {
        if (a !== b)
          expect(CATALOGS[a], `${a} = ${b}`).not.toEqual(CATALOGS[b]);
      }
    }
  });

  it.each(DOCUMENT_LOCALES)(
    "%s has a well-formed BCP 47 language tag",
    (locale) => {
      const tag = LANGUAGE_TAGS[locale];
      expect(Intl.getCanonicalLocales(tag)).toEqual([tag]);
      expect(tag.toLowerCase().startsWith(locale.slice(0, 2))).toBe(true);
    },
  );
});
