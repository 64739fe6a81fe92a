import { describe, expect, it } from "vitest";
import { deleteRequestSchema } from "../../src/schemas/delete-request";
import { demoTokenRequestSchema } from "../../src/schemas/demo-token-request";
import { fieldCodes } from "../helpers/validation";

const validDelete = {
  reason: "El camión no llegó a salir",
  confirm_not_delivered: true,
  confirm_not_used: true,
};

describe("delete request body", () => {
  it("accepts a reason with both confirmations, false ones included", () => {
    expect(fieldCodes(deleteRequestSchema, validDelete)).toEqual([]);
    // false is a valid body: the document rules answer it with a 409.
    expect(
      fieldCodes(deleteRequestSchema, {
        ...validDelete,
        confirm_not_delivered: false,
        confirm_not_used: false,
      }),
    ).toEqual([]);
  });

  it("lists every problem at once", () => {
    expect(
      fieldCodes(deleteRequestSchema, {
        reason: "",
        confirm_not_delivered: "true",
        extra: 1,
      }),
    ).toEqual([
      ["reason", "TOO_SHORT"],
      ["confirm_not_delivered", "INVALID_TYPE"],
      ["confirm_not_used", "REQUIRED"],
      ["extra", "UNKNOWN_FIELD"],
    ]);
  });

  it("limits the reason to 2000 characters", () => {
    expect(
      fieldCodes(deleteRequestSchema, {
        ...validDelete,
        reason: "ñ".repeat(2000),
      }),
    ).toEqual([]);
    expect(
      fieldCodes(deleteRequestSchema, {
        ...validDelete,
        reason: "ñ".repeat(2001),
      }),
    ).toEqual([["reason", "TOO_LONG"]]);
  });
});

describe("demo token request body", () => {
  it("defaults the locale to es", () => {
    expect(demoTokenRequestSchema.parse({})).toEqual({ document_locale: "es" });
    expect(demoTokenRequestSchema.parse({ document_locale: null })).toEqual({
      document_locale: "es",
    });
  });

  it.each(["es", "ca", "gl", "ca-valencia", "eu", "en", "pt-pt", "fr"])(
    "accepts the locale %s",
    (locale) => {
      expect(demoTokenRequestSchema.parse({ document_locale: locale })).toEqual(
        {
          document_locale: locale,
        },
      );
    },
  );

  it.each([
    [{ document_locale: "de" }, [["document_locale", "INVALID_VALUE"]]],
    [{ document_locale: "ES" }, [["document_locale", "INVALID_VALUE"]]],
    [{ document_locale: 1 }, [["document_locale", "INVALID_TYPE"]]],
    [{ document_locale: ["es"] }, [["document_locale", "INVALID_TYPE"]]],
    [{ locale: "es" }, [["locale", "UNKNOWN_FIELD"]]],
  ])("rejects %j", (body, expected) => {
    expect(fieldCodes(demoTokenRequestSchema, body)).toEqual(expected);
  });
});
