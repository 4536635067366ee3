import type { Middleware } from "openapi-fetch";
import { idempotencyKeyOperations } from "./generated/openapi.js";

const accepting = new Set(idempotencyKeyOperations);

/**
 * Gives each write whose operation accepts an `Idempotency-Key` (the OpenAPI document declares it) a
 * fresh random one, unless the caller sent one. It is set once per call, before the retrying fetch, so
 * every retry of that call carries the same key and the server creates at most once.
 */
export const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (accepting.has(`${request.method} ${schemaPath}`) && !request.headers.has("idempotency-key")) {
      request.headers.set("idempotency-key", crypto.randomUUID());
    }
  },
};
