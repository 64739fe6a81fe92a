// The client of the operations API (/ops/v1, docs/operations.md): the key
// tool, `npm run shards`, `npm start` and `npm run deploy` call the Worker
// through it, a local one or the deployment, the same way.

import type { GateCallChainPage } from "../../src/schemas/ops";

/** A refusal or failure of the operations API, with the contract's code. */
export class OpsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "OpsError";
  }
}

export interface OpsTarget {
  /** The Worker's origin, such as http://127.0.0.1:8787. */
  url: string;
  /** The support secret, sent as `Authorization: Bearer`. */
  secret: string;
}

export type OpsClient = ReturnType<typeof opsClient>;

export function opsClient({ url, secret }: OpsTarget) {
  async function request<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<T> {
    const response = await fetch(new URL(path, url), {
      method,
      headers: {
        Authorization: `Bearer ${secret}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    // A 204 has no body.
    if (response.ok) return (text === "" ? null : JSON.parse(text)) as T;
    let error: { code?: string; message?: string; field?: string | null } = {};
    try {
      error =
        (JSON.parse(text) as { errors: (typeof error)[] }).errors[0] ?? {};
    } catch {
      // Not the service's error body (a proxy's page): the status says it.
    }
    const field = error.field ? `${error.field}: ` : "";
    throw new OpsError(
      response.status,
      error.code ?? "HTTP_ERROR",
      `${method} ${path} answered ${response.status}: ${field}${error.message ?? text.slice(0, 200)}`,
    );
  }

  return {
    issueKey: (body: {
      organization: string;
      environment: "test" | "live";
      document_locale?: string | undefined;
      allowed_ips: string[];
      rate_limit_per_minute?: number | undefined;
    }) =>
      request<{ key: string; credential_id: string; organization_id: string }>(
        "POST",
        "/ops/v1/keys",
        body,
      ),
    listKeys: () =>
      request<{ credential_id: string; revoked_at: string | null }[]>(
        "GET",
        "/ops/v1/keys",
      ),
    revokeKey: (credentialId: string) =>
      request<unknown>(
        "POST",
        `/ops/v1/keys/${encodeURIComponent(credentialId)}/revoke`,
      ),
    listKeyWebhookEndpoints: (credentialId: string) =>
      request<unknown>(
        "GET",
        `/ops/v1/keys/${encodeURIComponent(credentialId)}/webhook-endpoints`,
      ),
    deleteKeyWebhookEndpoint: (credentialId: string, endpointId: string) =>
      request<null>(
        "DELETE",
        `/ops/v1/keys/${encodeURIComponent(credentialId)}/webhook-endpoints/${encodeURIComponent(endpointId)}`,
      ),
    setLocale: (organization: string, locale: string) =>
      request<unknown>(
        "PUT",
        `/ops/v1/organizations/${encodeURIComponent(organization)}/locale`,
        { document_locale: locale },
      ),
    documentAudit: (uuid: string) =>
      request<unknown>("GET", `/ops/v1/documents/${uuid}/audit`),
    /** A page of the gates' audit trail's chain, after row `after`. */
    gateCallChain: (after?: number) =>
      request<GateCallChainPage>(
        "GET",
        `/ops/v1/efti/gate-calls/chain?limit=100${after === undefined ? "" : `&starting_after=${after}`}`,
      ),
    /** The cron's work, run once now: what each task did. */
    runScheduledWork: () =>
      request<Record<string, unknown>>("POST", "/ops/v1/scheduled-work"),
    /** The whole upgrade from one database, a page a call: the rows moved per table. */
    async upgradeShards(): Promise<Record<string, number>> {
      const moved: Record<string, number> = {};
      let cursor: unknown = null;
      do {
        const step = await request<{
          table: string;
          moved: number;
          next: unknown;
        }>("POST", "/ops/v1/shards/upgrade", { cursor });
        moved[step.table] = (moved[step.table] ?? 0) + step.moved;
        cursor = step.next;
      } while (cursor !== null);
      return moved;
    },
    /**
     * Starts the rebalance from `from` shards (docs/scale.md "Adding
     * shards"), or finds the pass running, and waits for it to finish,
     * telling `onProgress` each time it looks; the rows moved per table.
     */
    async rebalanceShards(
      from: number,
      onProgress: (progress: RebalanceProgress) => void,
      pollMs = 1_000,
    ): Promise<Record<string, number>> {
      let progress = await request<RebalanceProgress>(
        "POST",
        "/ops/v1/shards/rebalance",
        { from },
      );
      while (progress.state !== "done") {
        onProgress(progress);
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        progress = await request<RebalanceProgress>(
          "GET",
          "/ops/v1/shards/rebalance",
        );
      }
      return progress.moved;
    },
  };
}

/** The rebalance job's progress, as GET /ops/v1/shards/rebalance answers it. */
interface RebalanceProgress {
  from: number;
  to: number;
  state: "running" | "done";
  cursor: { table: string; shard: number; after: number } | null;
  moved: Record<string, number>;
  steps: number;
  last_error: string | null;
}
