import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { elementsAt, rootOf, textAt } from "../efti/read-xml";
import { schemaErrors } from "../efti/validate";

// A stub of the EU reference implementation's gate (EFTI4EU/reference-
// implementation, commit 1a9981e1, module `gate`, and the registry of
// identifiers), in Node, as it behaves toward a platform on its REST
// interface: what it takes from a platform, and what it sends to one. Each
// part names the class it mirrors.

/** The identifier namespace of consignment-identifier.xsd. */
const IDENTIFIER = "http://efti.eu/v1/consignment/identifier";

/** The platforms' interface under the gate's base URL (PlatformApiController's @RequestMapping). */
const PLATFORM_API = "/api/platform";

/** gate-api-for-platform.yaml's `putConsignmentIdentifiers`. */
const PUT_PATH = new RegExp(`^${PLATFORM_API}/v0/consignments/([^/?]+)$`);

/** A means of transport of the registry (entity MainCarriageTransportMovement). */
interface RegisteredMovement {
  dangerousGoodsIndicator: boolean;
  modeCode: string | undefined;
  usedTransportMeansId: string | undefined;
  usedTransportMeansRegistrationCountry: string | undefined;
}

/** An equipment of the registry (entity UsedTransportEquipment). */
interface RegisteredEquipment {
  equipmentId: string | undefined;
  registrationCountry: string | undefined;
  sequenceNumber: number;
  categoryCode: string | undefined;
  carried: { equipmentId: string | undefined; sequenceNumber: number }[];
}

/** A consignment of the registry, as its IdentifiersMapper reads it. */
interface RegisteredConsignment {
  platformId: string;
  datasetId: string;
  carrierAcceptanceDatetime: string | undefined;
  deliveryEventActualOccurrenceDatetime: string | undefined;
  movements: RegisteredMovement[];
  equipments: RegisteredEquipment[];
}

/** A PUT the gate received, with what it answered (0: its connection dropped). */
export interface ReceivedPut {
  datasetId: string;
  headers: IncomingMessage["headers"];
  body: string;
  status: number;
}

/**
 * `IdentifiersMapper.eDeliverySupplyToEntity`: what the registry reads of an
 * identifier document; the rest of it is not kept. A document with none of
 * these elements (the empty `<consignment/>`) leaves a consignment that no
 * search by identifier finds: withdrawn.
 */
function registryEntry(
  platformId: string,
  datasetId: string,
  xml: string,
): RegisteredConsignment {
  const root = rootOf(xml, IDENTIFIER);
  const dateTime = (path: string) => {
    const [element] = elementsAt(root, path);
    // The registry keeps the instant; its format and text stand for it here.
    return element
      ? `${element.getAttribute("formatId")}:${element.textContent}`
      : undefined;
  };
  return {
    platformId,
    datasetId,
    carrierAcceptanceDatetime: dateTime("carrierAcceptanceDateTime"),
    deliveryEventActualOccurrenceDatetime: dateTime(
      "deliveryEvent/actualOccurrenceDateTime",
    ),
    movements: elementsAt(root, "mainCarriageTransportMovement").map(
      (movement) => ({
        dangerousGoodsIndicator:
          textAt(movement, "dangerousGoodsIndicator") === "true",
        modeCode: textAt(movement, "modeCode"),
        usedTransportMeansId: textAt(movement, "usedTransportMeans/id"),
        usedTransportMeansRegistrationCountry: textAt(
          movement,
          "usedTransportMeans/registrationCountry/code",
        ),
      }),
    ),
    equipments: elementsAt(root, "usedTransportEquipment").map((equipment) => ({
      equipmentId: textAt(equipment, "id"),
      registrationCountry: textAt(equipment, "registrationCountry/code"),
      sequenceNumber: Number(textAt(equipment, "sequenceNumber")),
      categoryCode: textAt(equipment, "categoryCode"),
      carried: elementsAt(equipment, "carriedTransportEquipment").map(
        (carried) => ({
          equipmentId: textAt(carried, "id"),
          sequenceNumber: Number(textAt(carried, "sequenceNumber")),
        }),
      ),
    })),
  };
}

/**
 * `SecurityConfig.EftiApiPreAuthenticatedUserHeaderFilter` and its
 * `platformApiFilterChain`: a platform is the user its reverse proxy names
 * in `X-Pre-Authenticated-User-Id`, with the role of
 * `X-Pre-Authenticated-User-Role` (blank: none), which must be `PLATFORM`
 * (`RestApiRoles.ROLE_PLATFORM`); otherwise 401 (its ApiSecurityIT). No
 * other credential, unless the stub is told one (`credential`, a Bearer
 * token that stands for a proxy's own check).
 */
function platformOf(
  request: IncomingMessage,
  credential: string | undefined,
): string | null {
  const header = (name: string) => {
    const value = request.headers[name.toLowerCase()];
    return typeof value === "string" && value.trim() !== "" ? value : null;
  };
  const userId = header("X-Pre-Authenticated-User-Id");
  const role = header("X-Pre-Authenticated-User-Role");
  if (userId === null || role !== "PLATFORM") return null;
  if (
    credential !== undefined &&
    request.headers.authorization !== `Bearer ${credential}`
  ) {
    return null;
  }
  return userId;
}

const bodyOf = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });

/** The gate on a loopback port; `close` when done. */
export interface ReferenceGate {
  /** The gate's REST base for platforms: EFTI_GATE_URL. */
  url: string;
  /** Every PUT, authenticated or not, valid or not. */
  puts: ReceivedPut[];
  /** The registry: (platform, dataset) → its last consignment. */
  registry: Map<string, RegisteredConsignment>;
  /** Whether a PUT of this dataset, once applied, has its connection dropped (its answer lost). */
  dropAnswer: (datasetId: string) => boolean;
  close(): Promise<void>;
}

/**
 * `PlatformApiController.putConsignmentIdentifiers` →
 * `IdentifiersRequestService.createOrUpdateFromRest`: the body validated
 * against consignment-identifier.xsd (`ValidationService.isXmlValid`; 400
 * `application/problem+xml` with the error otherwise), then
 * `IdentifiersService.createOrUpdate`: the registry's consignment of that
 * platform and dataset created or replaced, 200 without a body.
 */
export async function startReferenceGate(
  options: { credential?: string } = {},
): Promise<ReferenceGate> {
  const gate: Omit<ReferenceGate, "url" | "close"> = {
    puts: [],
    registry: new Map(),
    dropAnswer: () => false,
  };
  const server: Server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const match = PUT_PATH.exec(request.url ?? "");
    const datasetId = decodeURIComponent(match?.[1] ?? "");
    const received = (status: number) =>
      gate.puts.push({ datasetId, headers: request.headers, body, status });
    const answer = (status: number, problem?: string) => {
      received(status);
      if (problem === undefined) {
        response.writeHead(status).end();
        return;
      }
      response
        .writeHead(status, { "content-type": "application/problem+xml" })
        .end(
          `<problem><status>${status}</status><detail>${problem}</detail></problem>`,
        );
    };
    if (!request.url?.startsWith(`${PLATFORM_API}/`)) return answer(404);
    const platformId = platformOf(request, options.credential);
    if (platformId === null) return answer(401);
    if (request.method !== "PUT" || !match) return answer(404);
    const [invalid] = await schemaErrors("consignment-identifier", [body]);
    if (invalid !== undefined) return answer(400, invalid);
    gate.registry.set(
      `${platformId} ${datasetId}`,
      registryEntry(platformId, datasetId, body),
    );
    if (gate.dropAnswer(datasetId)) {
      // Applied, and its answer lost: the connection dropped.
      received(0);
      request.socket.destroy();
      return;
    }
    answer(200);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(gate, {
    url: `http://127.0.0.1:${port}${PLATFORM_API}`,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  });
}

/**
 * The gate's requests to a platform on its REST interface
 * (`PlatformRestService.PlatformRestClient`, generated from
 * platform-api-for-gate.yaml), `base` being the platform's `restApiBaseUrl`.
 * The reference gate sends no credential there yet (its `createApi`: "TODO
 * EREF-72: include authentication info"): `headers` are whatever this gate
 * is configured to send.
 */
export function platformClient(
  base: string,
  headers: Record<string, string> = {},
) {
  return {
    /**
     * `callGetConsignmentSubsets`: the subsets the officer named, or
     * `full` when none (`ControlUtils.SUBSET_ID`), one `subsetId` each.
     */
    getConsignmentSubsets: (datasetId: string, subsetIds: string[] = []) => {
      const query = new URLSearchParams(
        (subsetIds.length > 0 ? subsetIds : ["full"]).map((id) => [
          "subsetId",
          id,
        ]),
      );
      return fetch(
        `${base}/v0/consignments/${encodeURIComponent(datasetId)}?${query}`,
        { headers },
      );
    },
    /**
     * `callPostConsignmentFollowup`: the note as `text/plain` (the yaml's
     * type, no charset) in ISO-8859-1, Spring's StringHttpMessageConverter's
     * default charset.
     */
    postConsignmentFollowup: (datasetId: string, note: string) =>
      fetch(
        `${base}/v0/consignments/${encodeURIComponent(datasetId)}/follow-up`,
        {
          method: "POST",
          headers: { ...headers, "content-type": "text/plain" },
          body: Buffer.from(note, "latin1"),
        },
      ),
  };
}
