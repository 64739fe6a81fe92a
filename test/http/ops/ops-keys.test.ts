import { describe, expect, it } from "vitest";
import { fullRequest } from "../../../fixtures/requests";
import { documentsApi } from "../../helpers/documents-api";
import { opsClient, opsJson } from "../../helpers/ops";
import { rowsOfAllShards } from "../../helpers/shards";
import { bearer, call } from "../../helpers/worker";

// Key management and a document's audit trail through the operations API,
// against the same bindings the customers' API reads.

const ops = opsClient();

interface Listed {
  credential_id: string;
  organization: string;
  document_locale: string;
  key: string;
  rate_limit_per_minute: number | null;
  allowed_ips: string[];
  revoked_at: string | null;
}

const issue = async (body: Record<string, unknown>) => {
  const response = await ops("/ops/v1/keys", opsJson("POST", body));
  expect(response.status).toBe(201);
  return (await response.json()) as {
    key: string;
    credential_id: string;
    organization_id: string;
  };
};

const listed = async (credentialId: string) =>
  ((await (await ops("/ops/v1/keys")).json()) as Listed[]).find(
    (row) => row.credential_id === credentialId,
  );

describe("keys through the operations API", () => {
  it("issues a key that works at once, with its organization in every shard", async () => {
    const issued = await issue({
      organization: "Transportes Ñandú",
      environment: "live",
      rate_limit_per_minute: 50,
      allowed_ips: ["203.0.113.7"],
    });
    expect(issued.key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    const fromAllowed = bearer(issued.key, {
      "CF-Connecting-IP": "203.0.113.7",
    });
    expect((await call("/api/v1/documents", fromAllowed)).status).toBe(200);
    expect(
      await rowsOfAllShards(
        "SELECT id FROM organizations WHERE name = ?",
        "Transportes Ñandú",
      ),
    ).toHaveLength(4);
    expect(await listed(issued.credential_id)).toMatchObject({
      organization: "Transportes Ñandú",
      document_locale: "es",
      key: `sk_live_…${issued.key.slice(-4)}`,
      rate_limit_per_minute: 50,
      allowed_ips: ["203.0.113.7"],
      revoked_at: null,
    });
    expect(
      JSON.stringify(await (await ops("/ops/v1/keys")).json()),
    ).not.toContain(issued.key);
  });

  it("adds keys to an existing organization, and sets its locale for both", async () => {
    const first = await issue({
      organization: "Dos Claves SL",
      environment: "test",
    });
    const second = await issue({
      organization: "Dos Claves SL",
      environment: "live",
    });
    expect(second.organization_id).toBe(first.organization_id);
    const set = await ops(
      `/ops/v1/organizations/${encodeURIComponent("Dos Claves SL")}/locale`,
      opsJson("PUT", { document_locale: "eu" }),
    );
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({
      organization: "Dos Claves SL",
      document_locale: "eu",
    });
    expect((await listed(first.credential_id))?.document_locale).toBe("eu");
    expect((await listed(second.credential_id))?.document_locale).toBe("eu");
  });

  it("revokes a key from its next request on; a second revocation is 404", async () => {
    const issued = await issue({
      organization: "Revocada SL",
      environment: "test",
    });
    const revoke = () =>
      ops(`/ops/v1/keys/${issued.credential_id}/revoke`, { method: "POST" });
    const revoked = await revoke();
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({
      credential_id: issued.credential_id,
      revoked: true,
    });
    expect((await call("/api/v1/documents", bearer(issued.key))).status).toBe(
      401,
    );
    expect((await listed(issued.credential_id))?.revoked_at).toMatch(/Z$/);
    expect((await revoke()).status).toBe(404);
  });

  it("answers 404 for an unknown organization and 422 for a wrong body", async () => {
    expect(
      (
        await ops(
          "/ops/v1/organizations/Nadie/locale",
          opsJson("PUT", { document_locale: "eu" }),
        )
      ).status,
    ).toBe(404);
    const wrong = await ops(
      "/ops/v1/keys",
      opsJson("POST", {
        organization: "X",
        environment: "prod",
        allowed_ips: ["nope"],
      }),
    );
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({
      errors: [{ field: "environment" }, { field: "allowed_ips.0" }],
    });
  });

  it("shows a document's audit trail, without its body", async () => {
    const issued = await issue({
      organization: "Auditada SL",
      environment: "test",
    });
    const document = await documentsApi(call, issued.key).issue(fullRequest());
    const response = await ops(`/ops/v1/documents/${document.uuid}/audit`);
    expect(response.status).toBe(200);
    const trail = await response.json();
    expect(trail).toEqual({
      document_uuid: document.uuid,
      archived: false,
      events: [
        {
          occurred_at: document.created_at,
          type: "issued",
          credential_id: issued.credential_id,
          gate: null,
          dataset_id: null,
          request_id: expect.stringMatching(/^req_/),
          source: "d1",
        },
      ],
    });
    expect(JSON.stringify(trail)).not.toContain(document.data.shipper.name);
  });
});
