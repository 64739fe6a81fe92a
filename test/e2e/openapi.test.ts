import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { apiDocument } from "../../src/http/routes/openapi";

const execFileAsync = promisify(execFile);

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 for a real validator", async () => {
    const result = await validate(structuredClone(apiDocument()) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result).toMatchObject({ valid: true, specification: "OpenAPI" });
    expect(result.warnings).toEqual([]);
  });

  it("is written to dist/openapi.json by npm run openapi", async () => {
    await execFileAsync("npm", ["run", "openapi"]);
    const written = JSON.parse(await readFile("dist/openapi.json", "utf8"));
    expect(written).toEqual(JSON.parse(JSON.stringify(apiDocument())));
  });
});
