// POST /sandbox/webhooks/receive/{account} – the sandbox's webhook receiver: verifies and keeps a delivery
import { pageContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { readLimited } from "@/lib/adapters/http/body";
import { maxReceiptBytes, receiveSandboxDelivery, sandboxReceiverEnabled } from "@/lib/domain/webhooks/sandbox-receiver";

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

/**
 * Answers like an integrator's receiver that follows the guide: 204 for a delivery whose signature
 * verified, 401 otherwise (the sender then retries, and the delivery log shows the refusal). Not
 * found outside the sandbox, and for an account that does not exist.
 */
export async function POST(request: Request, { params }: { params: Promise<{ account: string }> }): Promise<Response> {
  if (!sandboxReceiverEnabled()) return plain(404, "Not found");
  if (Number(request.headers.get("content-length") ?? "0") > maxReceiptBytes) return plain(413, "Payload too large");
  try {
    const bytes = await readLimited(request, maxReceiptBytes);
    const { verified } = await receiveSandboxDelivery({
      ctx: await pageContext(),
      input: { accountId: (await params).account, headers: request.headers, body: new TextDecoder().decode(bytes) },
    });
    return verified ? new Response(null, { status: 204, headers: { "cache-control": "no-store" } }) : plain(401, "Signature not verified");
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return plain(404, "Not found");
    if (error instanceof AppError && error.code === "payload_too_large") return plain(413, "Payload too large");
    throw error;
  }
}
