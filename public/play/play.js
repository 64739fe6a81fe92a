import { callApi } from "./api.js";
import { TEXTS } from "./i18n.js";

// The form's fields by their API path: a 422's `field` names its input, and a
// rule across fields (`goods`, `vehicle`) names its group.
const GROUPS = [
  { name: null, fields: ["transport_date"] },
  {
    name: "shipper",
    fields: [
      "shipper.name",
      "shipper.tax_country",
      "shipper.tax_id",
      "shipper.address.street",
      "shipper.address.postal_code",
      "shipper.address.city",
      "shipper.address.country",
    ],
  },
  {
    name: "carrier",
    fields: ["carrier.name", "carrier.tax_country", "carrier.tax_id"],
  },
  {
    name: "origin",
    fields: [
      "origin.place",
      "origin.street",
      "origin.postal_code",
      "origin.city",
      "origin.country",
    ],
  },
  {
    name: "destination",
    fields: ["destination.place", "destination.city", "destination.country"],
  },
  { name: "goods", fields: ["goods.description", "goods.weight_kg"] },
  {
    name: "vehicle",
    fields: [
      "vehicle.country",
      "vehicle.registration",
      "vehicle.trailer_country",
      "vehicle.trailer_registration",
    ],
  },
  { name: null, fields: ["reference", "observations"] },
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

/** An error of the API in the page's language (i18n.js says how). */
function errorText({ field, code, message }) {
  const words = TEXTS[state.language].errors ?? {};
  return words[`${field}:${code}`] ?? words[code] ?? message;
}

/** Shows `text` in `element`, the API's own messages in its tooltip. */
function showText(element, text, messages = []) {
  element.textContent = text;
  element.title = messages.join("\n");
}

function fieldRow(path) {
  const row = document.createElement("div");
  row.className = "field";
  const label = document.createElement("label");
  label.htmlFor = `input-${path}`;
  label.dataset.i18n = labelKey(path);
  const input = document.createElement(
    path === "observations" ? "textarea" : "input",
  );
  input.id = `input-${path}`;
  input.name = path;
  input.setAttribute("aria-describedby", `error-${path}`);
  const error = document.createElement("p");
  error.className = "error";
  error.id = `error-${path}`;
  row.append(label, input, error);
  return row;
}

function buildForm() {
  for (const group of GROUPS) {
    const box = document.createElement(group.name ? "fieldset" : "div");
    if (group.name) {
      const legend = document.createElement("legend");
      legend.dataset.i18n = group.name;
      const error = document.createElement("p");
      error.className = "error";
      error.id = `error-${group.name}`;
      box.append(legend, error);
    }
    box.append(...group.fields.map(fieldRow));
    $("fields").append(box);
  }
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

/** The request body: every filled field at its path; empty fields are left out. */
function formBody() {
  const body = {};
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
    element.textContent = t(element.dataset.i18n);
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
