// POST /sandbox/webhooks/receive/{token} – the sandbox's webhook receiver: verifies and keeps a delivery
import { randomUUID } from "node:crypto";
import { database } from "@/db";
import { publicContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { resolveLocale } from "@/lib/base/i18n";
import { problemContentType, renderProblem } from "@/lib/base/problem";
import { readLimited } from "@/lib/adapters/http/body";
import { maxReceiptBytes, receiveSandboxDelivery, sandboxReceiverEnabled } from "@/lib/domain/webhooks/sandbox-receiver";

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

/**
 * Answers like an integrator's receiver that follows the guide: 204 for a delivery whose signature
 * verified, 401 otherwise (the sender then retries, and the delivery log shows the refusal), the
 * same 401 for an address that is no account's receiver. Over the limit of posts to the address, a
 * 429 problem with `Retry-After`. Not found outside the sandbox.
 */
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  if (!sandboxReceiverEnabled()) return plain(404, "Not found");
  if (Number(request.headers.get("content-length") ?? "0") > maxReceiptBytes) return plain(413, "Payload too large");
  try {
    const bytes = await readLimited(request, maxReceiptBytes);
    const { verified } = await receiveSandboxDelivery({
      ctx: publicContext(await database()),
      input: { token: (await params).token, headers: request.headers, body: new TextDecoder().decode(bytes) },
    });
    return verified ? new Response(null, { status: 204, headers: { "cache-control": "no-store" } }) : plain(401, "Signature not verified");
  } catch (error) {
    if (error instanceof AppError && error.code === "payload_too_large") return plain(413, "Payload too large");
    if (error instanceof AppError && error.code === "too_many_requests") return tooManyRequests(request, error);
    throw error;
  }
}

function tooManyRequests(request: Request, error: AppError): Response {
  const requestId = `req_${randomUUID().replace(/-/g, "")}`;
  const problem = renderProblem(error, resolveLocale({ acceptLanguage: request.headers.get("accept-language") }), requestId);
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { ...error.headers, "content-type": problemContentType, "cache-control": "no-store", "X-Request-Id": requestId },
  });
}
