import http from "node:http";
import { signWebhook } from "@/lib/domain/webhooks/signature";

/**
 * The webhook benchmark's plain POST (`bench/webhook-sender.ts`, `bench/webhook-ceiling.ts`): signed
 * with the product's `signWebhook`, the product's headers, plain `node:http`, a 10 s time limit, the
 * answer read to its end. `agent: false` makes a new connection per request, as `safePost` does.
 */

export interface BareRequest {
  receiver: number;
  url: string;
  secret: string;
  id: string;
  body: string;
}

export interface BareAnswer {
  /** The receiver's status, null when there was no answer. */
  status: number | null;
  /** The headers sent (the ceiling lane keeps them in the delivery's row, as the product does). */
  headers: Record<string, string>;
}

export function signedPost(request: BareRequest, agent: http.Agent | false): Promise<BareAnswer> {
  const timestamp = Math.floor(Date.now() / 1000);
  const body = Buffer.from(request.body, "utf8");
  const headers = {
    "content-type": "application/json",
    "user-agent": "Service-Webhooks/1",
    "webhook-id": request.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook({ secret: request.secret, id: request.id, timestamp, body: request.body }),
  };
  return new Promise((resolve) => {
    const req = http.request(
      request.url,
      { method: "POST", headers: { ...headers, "content-length": String(body.length) }, agent, signal: AbortSignal.timeout(10_000) },
      (res) => {
        res.on("data", () => undefined);
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers }));
        res.on("error", () => resolve({ status: null, headers }));
      },
    );
    req.on("error", () => resolve({ status: null, headers }));
    req.end(body);
  });
}
