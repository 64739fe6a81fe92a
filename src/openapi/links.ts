import type { OperationContract } from "./operation-contract";

/**
 * OpenAPI links from an answer that names a resource (`names`: a path
 * parameter's name and the JSON pointer of its value in the body) to every
 * operation those names address alone: all its path parameters named, and
 * no other parameter required (a QR link's secret is not in the answer).
 */
export function linksFrom(
  names: Record<string, string>,
  operations: readonly OperationContract[],
) {
  const links: Record<string, object> = {};
  for (const { params, doc } of operations) {
    const needed = Object.keys(params?.shape ?? {});
    const addressed =
      needed.length > 0 &&
      needed.every((name) => name in names) &&
      !doc.parameters?.some((parameter) => parameter.required);
    if (!addressed) continue;
    links[doc.operationId] = {
      operationId: doc.operationId,
      parameters: Object.fromEntries(
        needed.map((name) => [name, `$response.body#${names[name]}`]),
      ),
      description: doc.summary,
    };
  }
  return links;
}
