// The eFTI gate's registrations, sent (docs/efti.md "Registration with the
// gate"): what an `efti_registration` message asks. Each body is built from
// the document as it is when it is sent, never from the row that asked for
// it, so a resend after a lost answer, or two in either order, leaves the
// gate with the document's state.
import type { Database } from "../../db/client";
import {
  markRegistrationsSent,
  recordFailedAttempt,
  takeDueRegistrations,
} from "../../db/efti-registrations";
import type { EftiRegistrationRow } from "../../db/schema";
import { logFailure } from "../../failure-log";
import { findDocument } from "../documents/addressing";
import { documentData } from "../documents/document-body";
import { consignmentsOf } from "../efti/consignment";
import { identifierXml, withdrawnIdentifierXml } from "../efti/subsets";
import { chunks, grouped } from "../grouped";
import type { EftiGate, Services } from "../services";
import { shardsHolding, toDocument } from "../shard-routing";

/** How long the gate has to answer a registration. */
const GATE_TIMEOUT_MS = 10_000;

const USER_AGENT = "DeCA-eFTI/1";

// D1 binds at most 100 values a statement: uuids and ids go by fifty.
const AT_ONCE = 50;

/**
 * When a registration tried `attempts` times is due again: 5 s, 10 s, 20 s,
 * … then every 5 minutes; its message comes back then, until wrangler.toml's
 * max_retries; the cron then sends again what stays unsent once it is due
 * (recover.ts).
 */
export const registrationRetryDelaySeconds = (attempts: number): number =>
  Math.min(300, 5 * 2 ** Math.max(0, attempts - 1));

export type GateServices = Pick<
  Services,
  | "shards"
  | "shardsBefore"
  | "clock"
  | "archives"
  | "eftiGate"
  | "sendToGate"
  | "subrequests"
>;

/** An unsent registration, and the shard it was read from. */
interface Unsent {
  source: Database;
  row: EftiRegistrationRow;
}

/**
 * The identifier document of each of the document's datasets, as it now
 * is: a current version's from its consignment; a rectified one's (its
 * correction registered in its stead), a deleted one's, or one not found,
 * withdrawn. By dataset id; a dataset absent from the map is withdrawn.
 */
async function identifierBodies(
  services: GateServices,
  uuid: string,
): Promise<Map<string, string>> {
  const row = await findDocument(services, uuid);
  if (!row || row.deletedAt !== null || row.rectifiedByUuid !== null)
    return new Map();
  const consignments = await consignmentsOf({
    ...row,
    data: await documentData(services, row),
  });
  return new Map(
    consignments.map(({ datasetId, root }) => [datasetId, identifierXml(root)]),
  );
}

/**
 * How this service authenticates to the gate: the configured headers (the
 * reference gate reads a platform's identity from headers its reverse proxy
 * sets), and the Bearer credential when there is one. A client certificate,
 * when bound, is the sender's (services.ts), not a header.
 */
const gateAuthentication = (gate: EftiGate): Record<string, string> => ({
  ...gate.headers,
  ...(gate.credential === null
    ? {}
    : { authorization: `Bearer ${gate.credential}` }),
});

/** The PUT of one dataset's identifier document to the gate. */
const gateRequest = (gate: EftiGate, datasetId: string, body: string) =>
  new Request(`${gate.url}/v0/consignments/${encodeURIComponent(datasetId)}`, {
    method: "PUT",
    headers: {
      "user-agent": USER_AGENT,
      ...gateAuthentication(gate),
      "content-type": "application/xml",
    },
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(GATE_TIMEOUT_MS),
  });

/** What a PUT got: the gate's status, or why no answer came. */
type GateAnswer =
  | { status: number; failure?: undefined }
  | { status: null; failure: "timeout" | "connection" };

async function put(
  services: GateServices,
  gate: EftiGate,
  datasetId: string,
  body: string,
): Promise<GateAnswer> {
  try {
    const response = await services.sendToGate(
      gateRequest(gate, datasetId, body),
    );
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    return {
      status: null,
      failure:
        error instanceof Error && error.name === "TimeoutError"
          ? "timeout"
          : "connection",
    };
  }
}

// The 4xx a gate may answer to a request it would take later (a timeout, too
// early, too many): tried again like a 5xx. Any other 4xx says the request
// itself is refused, and it would be refused for ever: parked.
const RETRIED_CLIENT_ERRORS: readonly number[] = [408, 425, 429];

/** What becomes of the rows of a PUT so answered. */
const outcomeOf = ({ status }: GateAnswer): "sent" | "parked" | "retried" =>
  status === null
    ? "retried"
    : status >= 200 && status < 300
      ? "sent"
      : status >= 400 && status < 500 && !RETRIED_CLIENT_ERRORS.includes(status)
        ? "parked"
        : "retried";

/**
 * How long a claimed row is not taken by another message: longer than an
 * invocation's PUTs take (GATE_TIMEOUT_MS each), while its own failure then
 * sets its next attempt's time.
 */
const TAKEN_FOR_MS = 60_000;

/** The registrations' failures of some datasets were not all parked: their messages come back when the first is due. */
export class RegistrationsNotSent extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "RegistrationsNotSent";
  }
}

/** One dataset's PUT: its rows and what the gate answered. */
interface Attempt {
  registrations: Unsent[];
  datasetId: string;
  answer: GateAnswer;
}

/** Reads these documents' due registrations where each document is, taking each for this attempt. */
async function takeDue(
  services: GateServices,
  documentUuids: readonly string[],
  now: number,
): Promise<Unsent[]> {
  const sources = grouped(
    [...new Set(documentUuids)].flatMap((uuid) =>
      shardsHolding(services, toDocument(uuid)).map((source) => ({
        source,
        uuid,
      })),
    ),
    ({ source }) => source,
  );
  return (
    await Promise.all(
      [...sources].flatMap(([source, documents]) =>
        chunks(documents, AT_ONCE).map(async (run) =>
          (
            await takeDueRegistrations(
              source,
              run.map(({ uuid }) => uuid),
              now,
              now + TAKEN_FOR_MS,
            )
          ).map((row) => ({ source, row })),
        ),
      ),
    )
  ).flat();
}

/** Runs `write` on each shard's rows of `registrations`, by fifty; a failure is logged. */
const eachShard = (
  registrations: readonly Unsent[],
  event: string,
  write: (source: Database, ids: string[]) => Promise<unknown>,
) =>
  Promise.all(
    [...grouped(registrations, ({ source }) => source)].flatMap(
      ([source, group]) =>
        chunks(group, AT_ONCE).map((run) =>
          write(
            source,
            run.map(({ row }) => row.id),
          ).catch((error: unknown) => logFailure({ event }, error)),
        ),
    ),
  );

/** The next attempt's delay of a dataset's rows just tried: by the most tries among them. */
const retryDelaySeconds = (registrations: readonly Unsent[]): number =>
  registrationRetryDelaySeconds(
    Math.max(...registrations.map(({ row }) => row.attempts)),
  );

/**
 * Records what the gate answered: rows sent marked; a failure's rows given
 * their next attempt's time, or parked. A write that fails is logged: a row
 * not marked is sent again (the gate gets the same state), one not given
 * its time is due when its claim ends.
 */
async function recordAnswers(
  attempts: readonly Attempt[],
  now: number,
): Promise<void> {
  const sent = attempts.filter(({ answer }) => outcomeOf(answer) === "sent");
  await Promise.all([
    eachShard(
      sent.flatMap(({ registrations }) => registrations),
      "efti_registration_mark_failed",
      (source, ids) => markRegistrationsSent(source, ids, now),
    ),
    ...attempts
      .filter(({ answer }) => outcomeOf(answer) !== "sent")
      .map(({ registrations, answer, datasetId }) => {
        const parked = outcomeOf(answer) === "parked";
        if (parked) {
          console.log(
            JSON.stringify({
              event: "efti_registration_parked",
              dataset_id: datasetId,
              status: answer.status,
            }),
          );
        }
        return eachShard(
          registrations,
          "efti_registration_record_failed",
          (source, ids) =>
            recordFailedAttempt(source, ids, {
              status: answer.status,
              at: now,
              next: parked
                ? null
                : now + retryDelaySeconds(registrations) * 1000,
            }),
        );
      }),
  ]);
}

/**
 * What `{kind: "efti_registration"}` messages ask (a batch's, together):
 * these documents' registrations due now, taken where each document is (in
 * both its shards while a rebalance runs), each dataset's identifier
 * document built from its document as it is after that read and PUT to the
 * gate once (several rows of one dataset, one PUT), as many datasets as the
 * invocation's subrequests allow, and what the gate answered recorded (sent,
 * parked, or the next attempt's time). Throws RegistrationsNotSent when any
 * is to be tried again or was left for another invocation, once the others
 * are recorded: the messages come back when it is due, or when the claim of
 * those left ends (and the cron after them). Nothing while no gate is configured: the rows wait.
 */
export async function registerWithGate(
  services: GateServices,
  documentUuids: readonly string[],
): Promise<void> {
  const gate = services.eftiGate;
  if (gate === null) return;
  // The rows first: a fact committed after this read has its own row, which
  // stays unsent for the next message; the bodies are read after them.
  const unsent = await takeDue(services, documentUuids, services.clock.now());
  if (unsent.length === 0) return;
  const datasets = [...grouped(unsent, ({ row }) => row.documentUuid)].flatMap(
    ([uuid, rows]) =>
      [...grouped(rows, ({ row }) => row.datasetId)].map(
        ([datasetId, registrations]) => ({ uuid, datasetId, registrations }),
      ),
  );
  // One PUT a dataset, as many as the invocation's subrequests allow.
  const taken = datasets.slice(0, services.subrequests.take(datasets.length));
  const waiting = datasets.length - taken.length;
  const attempts: Attempt[] = (
    await Promise.all(
      [...grouped(taken, ({ uuid }) => uuid)].map(async ([uuid, group]) => {
        const bodies = await identifierBodies(services, uuid);
        return Promise.all(
          group.map(async ({ datasetId, registrations }) => ({
            registrations,
            datasetId,
            answer: await put(
              services,
              gate,
              datasetId,
              bodies.get(datasetId) ?? withdrawnIdentifierXml(),
            ),
          })),
        );
      }),
    )
  ).flat();
  await recordAnswers(attempts, services.clock.now());
  const retried = attempts.filter(
    ({ answer }) => outcomeOf(answer) === "retried",
  );
  if (retried.length > 0 || waiting > 0) {
    throw new RegistrationsNotSent(
      `the eFTI gate did not register ${retried.length} of ${
        attempts.length
      } datasets (${retried
        .slice(0, 3)
        .map(
          ({ datasetId, answer }) =>
            `${datasetId}: ${answer.failure ?? `status ${answer.status}`}`,
        )
        .join(", ")}); ${waiting} more wait for another invocation`,
      // Those not sent are claimed by this attempt until its claim ends.
      waiting > 0
        ? TAKEN_FOR_MS / 1000
        : Math.min(
            ...retried.map(({ registrations }) =>
              retryDelaySeconds(registrations),
            ),
          ),
    );
  }
}
