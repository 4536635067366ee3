import { z } from "zod";
import type { CallToolResult, StandardSchemaWithJSON, ToolAnnotations } from "@modelcontextprotocol/server";
import { operationOf } from "@/lib/adapters/http/declared-endpoint";
import type { KeyedRequest } from "@/lib/adapters/http/endpoint";
import { payloadOf } from "@/lib/adapters/http/respond";
import { apiBasePath } from "@/lib/adapters/http/route";
import { AppError } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { logger } from "@/lib/base/logger";
import { renderProblem } from "@/lib/base/problem";
import { requirePermission } from "@/lib/domain/keys/authenticate";

/** The tools, named as integrators' agents call them; at most 12, so that the list costs an agent little of its context. */
export const toolNames = [
  "get_schema",
  "validate_listing",
  "upsert_listing_by_ref",
  "get_listing",
  "list_listings",
  "change_listing_state",
  "set_photos",
  "list_events",
  "get_import",
  "search_docs",
] as const;
export type ToolName = (typeof toolNames)[number];

export type ToolArguments = Record<string, unknown>;

/** One declared operation with the values a tool call gives it, as a request to its route would carry them. */
export interface OperationCall {
  /** The route's exported handler of the operation (made by `endpoint(declaration, …)`). */
  handler: object;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

interface ToolBase {
  name: ToolName;
  /** The arguments, assembled from the operation's own declaration (path parameters, query, body schema). */
  input: z.ZodObject;
  annotations: Required<Pick<ToolAnnotations, "readOnlyHint" | "destructiveHint" | "idempotentHint">>;
}

/** A tool is a declared operation of the API, or (`answer`) a read no route serves (the guides' search). */
export type McpTool = ToolBase &
  ({ operation: (args: ToolArguments) => OperationCall } | { answer: (args: ToolArguments, locale: Locale) => unknown });

/**
 * The arguments' JSON Schema is the declaration's; the check is the route's own, run in the tool
 * call, so that a refused argument is the API's problem document in a tool result (`isError`) rather
 * than the SDK's protocol error, and carries the API's pointers and codes.
 */
export function advertisedSchema(schema: z.ZodObject): StandardSchemaWithJSON<ToolArguments> {
  const jsonSchema = () =>
    z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return {
    "~standard": {
      version: 1,
      vendor: "listings-api",
      validate: (value) => ({
        value: value !== null && typeof value === "object" && !Array.isArray(value) ? (value as ToolArguments) : {},
      }),
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}

/**
 * Runs a tool for a caller the MCP endpoint has admitted: `structuredContent` is what the API
 * answers (`{ data, warnings }`, plus `unchanged: true` where it sends `X-Service-Unchanged`), a
 * refusal the API's problem document with `isError`. The text block carries the same JSON: what a
 * listing or a report holds reaches the agent as data inside it, never as text of its own.
 */
export async function runTool(tool: McpTool, args: ToolArguments, req: KeyedRequest<unknown>): Promise<CallToolResult> {
  try {
    const structured = "answer" in tool ? tool.answer(args, req.locale) : await callOperation(tool.operation(args), req);
    return { structuredContent: structured as Record<string, unknown>, content: [{ type: "text", text: JSON.stringify(structured) }] };
  } catch (error) {
    if (!(error instanceof AppError)) logger.error("mcp tool failed", { requestId: req.requestId, tool: tool.name, error });
    const problem = renderProblem(error, req.locale, req.requestId);
    return { isError: true, structuredContent: { ...problem }, content: [{ type: "text", text: JSON.stringify(problem) }] };
  }
}

/**
 * The operation as its route runs it (path, query and body parsed by its declaration, then its
 * handler), under the MCP request's key: that key's permission for the operation, its account, its
 * language. Only the headers are not the caller's: no tool sends `If-Match` or `Idempotency-Key`.
 */
async function callOperation(call: OperationCall, req: KeyedRequest<unknown>): Promise<unknown> {
  const operation = operationOf(call.handler);
  if (!operation) throw new Error("a tool's handler must be made by endpoint(declaration, handler)");
  const { declaration } = operation;
  if (declaration.permission !== "public" && declaration.permission !== "any key") requirePermission(req.principal, declaration.permission);
  const params = Object.fromEntries(
    Object.entries(call.params ?? {}).map(([name, value]) => [name, typeof value === "string" ? value : JSON.stringify(value ?? "")]),
  );
  const url = new URL(
    `${apiBasePath}${declaration.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))}`,
    req.url,
  );
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  const response = await operation.run({
    ...req,
    request: new Request(url, { method: declaration.method, signal: req.request.signal }),
    url,
    params,
    body: async () => call.body ?? {},
    logBody: () => {},
  });
  const payload = payloadOf(response)?.payload ?? null;
  return response.headers.get("x-service-unchanged") === "true" ? { ...(payload as object), unchanged: true } : payload;
}
