import { NextResponse, type NextRequest } from "next/server";
import { hasMalformedPath, malformedPath } from "@/lib/adapters/http/malformed-path";
import { allowsInlineStyles, newNonce, pageSecurityHeaders } from "@/lib/adapters/portal/security-headers";
import { vercelBlobOrigin } from "@/lib/infra/storage/vercel-origin";
import { crossOriginRefusal, isCrossOriginPost } from "@/lib/adapters/portal/cross-origin";
import { pagePathHeader } from "@/lib/adapters/portal/page-path";

// Read once: the photo store does not change while the server runs.
const photoOrigin = process.env.BLOB_READ_WRITE_TOKEN ? vercelBlobOrigin(process.env.BLOB_READ_WRITE_TOKEN) : undefined;

/**
 * Three jobs, chosen by the matcher so that API requests never pay for page work:
 *
 * - A path Next.js cannot decode ends in the framework's own text/plain 500 before any route handler
 *   runs; under /api/v1 such a request gets the API's 400 problem here instead. Only API paths holding
 *   a `%` come through this proxy.
 * - Pages (every path outside /api, /.well-known (JSON for machines, which sets its own headers),
 *   the sandbox's webhook receiver (posts from senders, answered like the API; see below) and the
 *   framework's static files, prefetches excluded) get a fresh
 *   CSP nonce and the security headers. Next.js reads the nonce from the request's
 *   Content-Security-Policy header and puts it on the scripts it renders, which is why the policy is
 *   set on the request as well as on the response.
 * - A form post to a page from another site (lib/adapters/portal/cross-origin.ts) gets a 403 page in the
 *   visitor's language before it reaches Next.js, whose own refusal is a 500.
 *
 * The receiver (`/sandbox/webhooks/receive/{token}`) stays out: Next.js copies the body of every post
 * it runs the proxy for, and a sender that gave up mid-request (the webhook lane at its 10 seconds,
 * the server slowed by `next dev`'s compiles) left an `Error: aborted` (`ECONNRESET`) in the server,
 * most of them uncaught exceptions; without the copy, a sender that goes away leaves nothing.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  if (request.nextUrl.pathname.startsWith("/api/")) {
    if (!hasMalformedPath(request.nextUrl.pathname)) return NextResponse.next();
    return malformedPath(request, { params: Promise.resolve({}) });
  }
  const headers = pageSecurityHeaders(newNonce(), {
    development: process.env.NODE_ENV === "development",
    photoOrigin,
    inlineStyles: allowsInlineStyles(request.nextUrl.pathname),
  });
  if (isCrossOriginPost(request)) return crossOriginRefusal(request, headers);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", headers["Content-Security-Policy"]);
  // Where a signed-out visitor returns after signing in (lib/adapters/portal/session.ts); a layout cannot read its path otherwise.
  requestHeaders.set(pagePathHeader, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    "/api/v1/:path(.*%.*)",
    {
      source: "/((?!api/|\\.well-known/|sandbox/webhooks/receive/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
