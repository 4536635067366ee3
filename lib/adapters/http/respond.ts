/**
 * Response helpers. The payload of each JSON response is remembered beside it so that the API log
 * can keep the body without reading the response stream a second time.
 */
const payloads = new WeakMap<Response, unknown>();

export function json(payload: unknown, init: { status?: number; headers?: HeadersInit; contentType?: string } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", init.contentType ?? "application/json; charset=utf-8");
  const response = new Response(JSON.stringify(payload), { status: init.status ?? 200, headers });
  payloads.set(response, payload);
  return response;
}

export function noContent(headers?: HeadersInit): Response {
  return new Response(null, { status: 204, headers });
}

export const payloadOf = (response: Response): unknown => payloads.get(response);
