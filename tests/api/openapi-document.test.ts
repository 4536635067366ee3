import { readFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import prettier from "prettier";
import { describe, expect, it } from "vitest";
import { apiDocument } from "@/app/api/v1/routes";

const root = path.join(import.meta.dirname, "../..");

describe("the OpenAPI document", () => {
  it("gives every operation that takes a body an example, shown and sent by /docs/api", () => {
    const operations = Object.values(apiDocument().paths ?? {}).flatMap((item) => Object.values(item ?? {}));
    const withBody = operations.filter((op) => typeof op === "object" && op && "requestBody" in op && op.requestBody);
    expect(withBody.length).toBeGreaterThanOrEqual(5);
    for (const op of withBody as { operationId: string; requestBody: { content: Record<string, { example?: unknown }> } }[]) {
      for (const [type, media] of Object.entries(op.requestBody.content)) expect(media.example, `${op.operationId} ${type}`).toBeDefined();
    }
  });

  it("says photo rooms are free labels, at most 3, not vocabulary codes", () => {
    const schemas = apiDocument().components?.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(schemas.PhotoItem.properties.rooms).toMatchObject({
      type: "array",
      maxItems: 3,
      items: { type: "string", minLength: 1, maxLength: 60 },
      description: expect.stringContaining("free text"),
    });
    expect(JSON.stringify(schemas.PhotoItem.properties.rooms)).not.toContain('"enum"');
  });

  it("matches the committed client types (npm run openapi:types writes them)", async () => {
    const file = path.join(root, "tests/support/openapi-types.d.ts");
    const generated = astToString(await openapiTS(JSON.parse(JSON.stringify(apiDocument()))));
    const header = readFileSync(file, "utf8").split("\n").slice(0, 5).join("\n");
    const formatted = await prettier.format(`${header}\n\n${generated}`, { ...(await prettier.resolveConfig(file)), filepath: file });
    expect(formatted === readFileSync(file, "utf8"), "tests/support/openapi-types.d.ts is stale: run npm run openapi:types").toBe(true);
  }, 60_000);
});
