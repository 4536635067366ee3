import { describe, expect, it } from "vitest";
import { apiDocument } from "@/app/api/v1/routes";
import { eventDataSchemas, eventTypes, listingEventData, webhookEventBodySchema } from "@/lib/domain/events";
import { webhookExampleData } from "@/lib/adapters/openapi/webhooks";

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: { type?: string; const?: unknown };
}
interface SchemaObject {
  type?: string;
  const?: unknown;
  $ref?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
}
interface WebhookOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters: Parameter[];
  requestBody: { required: boolean; content: Record<string, { schema: SchemaObject; example: unknown }> };
  responses: Record<string, { description: string }>;
}

const document = apiDocument() as unknown as {
  webhooks: Record<string, { post?: WebhookOperation }>;
  components: { schemas: Record<string, SchemaObject> };
};
const allTypes = Object.values(eventTypes);

function resolve(schema: SchemaObject): SchemaObject {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  expect(document.components.schemas[name], schema.$ref).toBeDefined();
  return document.components.schemas[name];
}

describe("the OpenAPI document's webhooks", () => {
  it("has one webhook per event type of the code, webhook.test included, and no other", () => {
    expect(allTypes).toContain("webhook.test");
    expect(Object.keys(document.webhooks).sort()).toEqual([...allTypes].sort());
  });

  it.each(allTypes)("%s: a POST with the signature headers and User-Agent, all required", (type) => {
    const post = document.webhooks[type].post!;
    expect(post).toBeDefined();
    expect(post.tags).toEqual(["Webhooks"]);
    const headers = Object.fromEntries(post.parameters.filter((p) => p.in === "header").map((p) => [p.name, p]));
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature", "User-Agent"]) {
      expect(headers[name]?.required, name).toBe(true);
    }
    expect(headers["webhook-timestamp"].schema.type).toBe("integer");
    expect(headers["User-Agent"].schema.const).toBe("Service-Webhooks/1");
  });

  it.each(allTypes)("%s: its body is that type's event: id, type, created_at, its own data, optional connection", (type) => {
    const post = document.webhooks[type].post!;
    expect(Object.keys(post.requestBody.content)).toEqual(["application/json"]);
    expect(post.requestBody.required).toBe(true);
    const body = resolve(post.requestBody.content["application/json"].schema);
    expect(body.required?.sort()).toEqual(["created_at", "data", "id", "type"]);
    expect(body.properties?.type.const).toBe(type);
    expect(body.properties?.connection.type).toBe("integer");
    const data = resolve(body.properties!.data);
    const shape = eventDataSchemas[type].shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
    expect(Object.keys(data.properties ?? {}).sort()).toEqual(Object.keys(shape).sort());
    const requiredMembers = Object.keys(shape).filter((key) => !shape[key].safeParse(undefined).success);
    expect(data.required?.sort()).toEqual(requiredMembers.sort());
  });

  it.each(allTypes)("%s: its example is a valid body, with and without connection", (type) => {
    const example = document.webhooks[type].post!.requestBody.content["application/json"].example as Record<string, unknown>;
    const schema = webhookEventBodySchema(type, "Check");
    expect(schema.safeParse(example).error).toBeUndefined();
    expect(schema.safeParse({ ...example, connection: 7 }).error).toBeUndefined();
    expect(schema.safeParse({ ...example, type: "listing.other" }).success).toBe(false);
    expect(example.data).toEqual(webhookExampleData[type]);
  });

  it.each(allTypes)("%s: answers 2xx (delivered), 410 and default (failed) are documented", (type) => {
    const responses = document.webhooks[type].post!.responses;
    expect(Object.keys(responses).sort()).toEqual(["2XX", "410", "default"]);
    for (const r of Object.values(responses)) expect(r.description).toMatch(/\S/);
  });

  it("describes the retry schedule, and webhook.test as never retried", () => {
    const published = document.webhooks["listing.published"].post!.responses.default.description;
    expect(published).toContain("30 seconds, 2 minutes, 10 minutes, 30 minutes, 2 hours and 6 hours");
    expect(document.webhooks["webhook.test"].post!.responses.default.description).toContain("not retried");
  });

  it("documents the data listingEventData writes for listing events", () => {
    const listing = { code: "K7M2XQ4P", externalRef: null, status: "active" as const };
    expect(eventDataSchemas[eventTypes.published].safeParse(listingEventData(listing)).error).toBeUndefined();
    expect(
      eventDataSchemas[eventTypes.withdrawn].safeParse(listingEventData(listing, { by: "owner", deleted: true })).error,
    ).toBeUndefined();
    expect(
      eventDataSchemas[eventTypes.rejected].safeParse(
        listingEventData({ ...listing, status: "rejected" }, { reason: "r", rejection_codes: ["duplicate"] }),
      ).error,
    ).toBeUndefined();
    expect(eventDataSchemas[eventTypes.editedInPortal].safeParse(listingEventData(listing, { etag: '"1-a"' })).error).toBeUndefined();
  });
});
