import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { apiDocument } from "@/app/api/v1/routes";
import { generatedClientFile, renderedClient } from "@/scripts/sdk-generate";

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

  it("gives every schema a form Scalar's reference reads without a document warning: no empty additionalProperties", () => {
    const text = JSON.stringify(apiDocument());
    expect(text).not.toContain('"additionalProperties":{}');
    expect(text).not.toContain('"propertyNames"');
    const schemas = apiDocument().components?.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(schemas.Event.properties.data).toEqual({ type: "object", additionalProperties: true });
  });

  it("matches the committed client types of sdk/ (npm run sdk:generate writes them)", async () => {
    expect(
      readFileSync(generatedClientFile, "utf8") === (await renderedClient()),
      "sdk/src/generated/openapi.ts is stale: run npm run sdk:generate",
    ).toBe(true);
  }, 60_000);
});
