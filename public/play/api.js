// The public API as the page calls it; every call is also shown as the curl
// command that does the same from a terminal.

const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

function curlOf(method, path, token, body) {
  const parts = [`curl -X ${method} ${quote(location.origin + path)}`];
  if (token) parts.push(`-H ${quote(`Authorization: Bearer ${token}`)}`);
  if (body !== undefined) {
    parts.push(`-H 'Content-Type: application/json'`);
    parts.push(`-d ${quote(JSON.stringify(body))}`);
  }
  if (path.endsWith("/pdf")) parts.push("-o documento.pdf");
  return parts.join(" \\\n  ");
}

/** A JSON or PDF call; resolves to {status, body} and reports its curl. */
export async function callApi({ method, path, token, body, onCall }) {
  onCall(curlOf(method, path, token, body));
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = response.headers.get("Content-Type") ?? "";
  const parsed = type.startsWith("application/json")
    ? await response.json()
    : type.startsWith("application/pdf")
      ? await response.blob()
      : null;
  return { status: response.status, body: parsed };
}
