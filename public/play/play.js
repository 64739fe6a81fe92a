import { callApi } from "./api.js";
import { TEXTS } from "./i18n.js";

// The form's fields by their API path: a 422's `field` names its input, and a
// rule across fields (`goods`, `vehicle`) names its group. One shipment's
// groups stand at the top level of a single-shipment body, and under
// `shipments.N.` (zero-based) of a grouped one.
const group = (name, fields) => ({ name, fields });
const BEFORE_SHIPMENTS = [
  group(null, ["transport_date"]),
  group("shipper", [
    "shipper.name",
    "shipper.tax_country",
    "shipper.tax_id",
    "shipper.address.street",
    "shipper.address.postal_code",
    "shipper.address.city",
    "shipper.address.country",
  ]),
  group("carrier", ["carrier.name", "carrier.tax_country", "carrier.tax_id"]),
];
const SHIPMENT = [
  group("origin", [
    "origin.place",
    "origin.street",
    "origin.postal_code",
    "origin.city",
    "origin.country",
  ]),
  group("destination", [
    "destination.place",
    "destination.city",
    "destination.country",
  ]),
  group("goods", ["goods.description", "goods.weight_kg"]),
];
const AFTER_SHIPMENTS = [
  group("vehicle", [
    "vehicle.country",
    "vehicle.registration",
    "vehicle.trailer_country",
    "vehicle.trailer_registration",
  ]),
  group(null, ["reference", "observations"]),
];

const $ = (id) => document.getElementById(id);
const state = {
  language: localStorage.getItem("language") ?? "es",
  token: null,
  document: null,
};
const t = (key) => TEXTS[state.language][key] ?? key;
const labelKey = (path) =>
  path in TEXTS[state.language] ? path : path.split(".").at(-1);

/**
 * An error of the API in the page's language (i18n.js says how); a field of
 * a shipment is worded like that of a single-shipment body.
 */
function errorText({ field, code, message }) {
  const words = TEXTS[state.language].errors ?? {};
  const own = field?.replace(/^shipments\.\d+\./, "");
  return words[`${own}:${code}`] ?? words[code] ?? message;
}

/** Shows `text` in `element`, the API's own messages in its tooltip. */
function showText(element, text, messages = []) {
  element.textContent = text;
  element.title = messages.join("\n");
}

/** An element with the page's words for `key`, `{n}` replaced by `n`. */
function worded(tag, key, n) {
  const element = document.createElement(tag);
  element.dataset.i18n = key;
  if (n !== undefined) element.dataset.n = n;
  return element;
}

function errorLine(path) {
  const error = document.createElement("p");
  error.className = "error";
  error.id = `error-${path}`;
  return error;
}

/** A field at `prefix + path`, labelled by `path` (its own part). */
function fieldRow(path, prefix) {
  const name = prefix + path;
  const row = document.createElement("div");
  row.className = "field";
  const label = worded("label", labelKey(path));
  label.htmlFor = `input-${name}`;
  const input = document.createElement(
    path === "observations" ? "textarea" : "input",
  );
  input.id = `input-${name}`;
  input.name = name;
  input.dataset.path = path;
  input.setAttribute("aria-describedby", `error-${name}`);
  row.append(label, input, errorLine(name));
  return row;
}

function groupBox({ name, fields }, prefix = "") {
  const box = document.createElement(name ? "fieldset" : "div");
  if (name) box.append(worded("legend", name), errorLine(prefix + name));
  box.append(...fields.map((path) => fieldRow(path, prefix)));
  return box;
}

/** Each shipment's values by its own path (`goods.weight_kg`). */
const shipmentValues = () =>
  [...document.querySelectorAll(".shipment")].map((shipment) =>
    Object.fromEntries(
      [...shipment.querySelectorAll("[data-path]")].map((input) => [
        input.dataset.path,
        input.value,
      ]),
    ),
  );

/**
 * One shipment: the groups of a single-shipment body; two or more: a
 * numbered fieldset each, its inputs under `shipments.N.`, and a button that
 * removes it.
 */
function showShipments(values) {
  const boxes = values.map((shipment, index) => {
    const grouped = values.length > 1;
    const prefix = grouped ? `shipments.${index}.` : "";
    const box = document.createElement(grouped ? "fieldset" : "div");
    box.className = "shipment";
    if (grouped) {
      box.append(
        worded("legend", "shipment", index + 1),
        errorLine(`shipments.${index}`),
      );
    }
    box.append(...SHIPMENT.map((group) => groupBox(group, prefix)));
    if (grouped) {
      const remove = worded("button", "removeShipment", index + 1);
      remove.type = "button";
      remove.addEventListener("click", () => removeShipment(index));
      box.append(remove);
    }
    for (const input of box.querySelectorAll("[data-path]")) {
      input.value = shipment[input.dataset.path] ?? "";
    }
    return box;
  });
  $("shipments").replaceChildren(...boxes);
  translate();
}

function addShipment() {
  showShipments([...shipmentValues(), {}]);
  document.querySelector(".shipment:last-child input")?.focus();
}

function removeShipment(index) {
  showShipments(shipmentValues().filter((_, other) => other !== index));
  $("add-shipment").focus();
}

function buildForm() {
  const shipments = document.createElement("div");
  shipments.id = "shipments";
  const add = worded("button", "addShipment");
  add.type = "button";
  add.id = "add-shipment";
  add.addEventListener("click", addShipment);
  $("fields").append(
    ...BEFORE_SHIPMENTS.map((group) => groupBox(group)),
    shipments,
    add,
    errorLine("shipments"),
    ...AFTER_SHIPMENTS.map((group) => groupBox(group)),
  );
  showShipments([{}]);
}

const valueAt = (object, path) =>
  path
    .split(".")
    .reduce((value, key) => (value == null ? undefined : value[key]), object);

/**
 * Pre-fills the form with the fictitious example of the API's own
 * description: its first, which has no reference.
 */
async function prefill() {
  const openapi = await (await fetch("/api/v1/openapi.json")).json();
  const { examples } =
    openapi.paths["/api/v1/documents"].post.requestBody.content[
      "application/json"
    ];
  const example = Object.values(examples)[0].value;
  example.transport_date = new Date().toISOString().slice(0, 10);
  for (const input of $("document-form").elements) {
    if (input.name) input.value = valueAt(example, input.name) ?? "";
  }
}

/**
 * The request body: every filled field at its path (a number is an index of
 * `shipments`); empty fields are left out, an empty shipment stays an object.
 */
function formBody() {
  const grouped = document.querySelectorAll("fieldset.shipment");
  const body = grouped.length
    ? { shipments: [...grouped].map(() => ({})) }
    : {};
  for (const input of $("document-form").elements) {
    if (!input.name || input.value.trim() === "") continue;
    const keys = input.name.split(".");
    const last = keys.pop();
    let target = body;
    for (const key of keys) target = target[key] ??= {};
    target[last] = input.value;
  }
  return body;
}

function translate() {
  document.documentElement.lang = state.language;
  document.title = t("title");
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n).replace(
      "{n}",
      element.dataset.n,
    );
  }
  $("language").textContent = t("switchTo");
  $("language").lang = state.language === "es" ? "en" : "es";
}

function logCall(command) {
  const item = document.createElement("li");
  const code = document.createElement("pre");
  code.textContent = command;
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = t("copy");
  copy.addEventListener("click", async () => {
    await navigator.clipboard.writeText(command);
    copy.textContent = t("copied");
  });
  item.append(code, copy);
  $("calls").append(item);
}

const api = (method, path, body) =>
  callApi({ method, path, token: state.token, body, onCall: logCall });

function clearErrors() {
  for (const error of document.querySelectorAll("#document-form .error"))
    showText(error, "");
  for (const input of document.querySelectorAll("[aria-invalid]"))
    input.removeAttribute("aria-invalid");
}

/** Puts each error of the API next to its field, or above the buttons. */
function showErrors(status, body) {
  const general = [];
  for (const error of body?.errors ?? []) {
    const place = error.field === null ? null : $(`error-${error.field}`);
    if (place) {
      showText(place, errorText(error), [error.message]);
      $(`input-${error.field}`)?.setAttribute("aria-invalid", "true");
    } else {
      general.push(error);
    }
  }
  showText(
    $("form-error"),
    general
      .map(
        (error) =>
          `${t("failed")} ${status} ${error.code}: ${errorText(error)}`,
      )
      .join(" "),
    general.map((error) => error.message),
  );
  document.querySelector("[aria-invalid='true']")?.focus();
}

async function showDocument(document, statusKey) {
  state.document = document;
  $("result").hidden = false;
  $("result-status").textContent = `${t(statusKey)}: ${document.uuid}`;
  $("qr-link").href = document.url;
  const pdf = await api("GET", new URL(document.pdf_download_url).pathname);
  if (pdf.status === 200) $("pdf").src = URL.createObjectURL(pdf.body);
  $("correct").disabled = false;
  $("delete").disabled = false;
}

async function requestToken() {
  const { status, body } = await api("POST", "/api/v1/demo/tokens", {
    document_locale: state.language,
  });
  if (status !== 201) {
    const errors = body?.errors ?? [];
    showText(
      $("token-status"),
      `${t("failed")} ${status}: ${errors.map(errorText).join(" ")}`,
      errors.map((error) => error.message),
    );
    return;
  }
  state.token = body.token;
  showText($("token-status"), `${t("tokenReady")} ${body.expires_at}`);
  $("issue").disabled = false;
}

async function issueOrCorrect(correcting) {
  clearErrors();
  const { status, body } = correcting
    ? await api("PUT", `/api/v1/documents/${state.document.uuid}`, formBody())
    : await api("POST", "/api/v1/documents", formBody());
  if (status === 200 || status === 201) {
    await showDocument(body, correcting ? "corrected" : "issued");
  } else {
    showErrors(status, body);
  }
}

async function remove() {
  clearErrors();
  const { status, body } = await api(
    "DELETE",
    `/api/v1/documents/${state.document.uuid}`,
    {
      reason: t("deleteReason"),
      confirm_not_delivered: true,
      confirm_not_used: true,
    },
  );
  if (status !== 204) return showErrors(status, body);
  $("result-status").textContent = `${t("deleted")}: ${state.document.uuid}`;
  $("pdf").removeAttribute("src");
  $("correct").disabled = true;
  $("delete").disabled = true;
}

buildForm();
translate();
$("language").addEventListener("click", () => {
  state.language = state.language === "es" ? "en" : "es";
  localStorage.setItem("language", state.language);
  translate();
});
$("request-token").addEventListener("click", requestToken);
$("document-form").addEventListener("submit", (event) => {
  event.preventDefault();
  issueOrCorrect(false);
});
$("correct").addEventListener("click", () => issueOrCorrect(true));
$("delete").addEventListener("click", remove);
await prefill();
