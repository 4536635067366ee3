/**
 * Response helpers. The payload of each JSON response is remembered beside it so that the API log
 * can keep the body without reading the response stream a second time.
 */
const payloads = new WeakMap<Response, { payload: unknown; text: string }>();

export function json(payload: unknown, init: { status?: number; headers?: HeadersInit; contentType?: string } = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", init.contentType ?? "application/json; charset=utf-8");
  const text = JSON.stringify(payload);
  const response = new Response(text, { status: init.status ?? 200, headers });
  payloads.set(response, { payload, text });
  return response;
}

export function noContent(headers?: HeadersInit): Response {
  return new Response(null, { status: 204, headers });
}

/** The payload of a JSON response made by `json`, and the text it was sent as. */
export const payloadOf = (response: Response): { payload: unknown; text: string } | undefined => payloads.get(response);
