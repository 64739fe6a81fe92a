/** The document's two ways to be let in: a Bearer key, or a QR link's `k`. */
export const SECURITY_SCHEMES = {
  bearer: {
    type: "http",
    scheme: "bearer",
    description:
      "`Authorization: Bearer sk_test_…|sk_live_…|sk_demo_…`. Never in a URL or a client-side app.",
  },
  qrSecret: {
    type: "apiKey",
    in: "query",
    name: "k",
    description: "The secret of a QR link, exactly as returned in `url`.",
  },
};

export const BEARER = [{ bearer: [] }];
export const QR_SECRET = [{ qrSecret: [] }];

export const SUPPORT_SECRET = [{ supportSecret: [] }];

export const OPS_SECURITY_SCHEMES = {
  supportSecret: {
    type: "http",
    scheme: "bearer",
    description:
      "`Authorization: Bearer <support secret>`: the base64 key of any version of SUPPORT_KEYRING.",
  },
};
