import type { NextRequest } from "next/server";
import { pageLocale } from "@/lib/base/i18n";
import { localeCookie } from "@/lib/adapters/portal/page-locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { logger } from "@/lib/base/logger";

/** Methods that change nothing, which another site may send freely. */
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a page request is a form post (a server action, with or without JavaScript) sent from
 * another site. The same comparison as Next.js's own check of server actions (action-handler.js):
 * the Origin's host against the first `x-forwarded-host`, else `Host`; `Origin: null` (a sandboxed
 * frame, a redirect across sites) is another site too. Next.js answers those with a 500 after logging
 * an error; they are refused here first, cleanly. A post without Origin passes, as it does there:
 * browsers send Origin with every cross-site post, and a handcrafted one carries no visitor's cookies.
 */
export function isCrossOriginPost(request: Request): boolean {
  if (safeMethods.has(request.method)) return false;
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  if (origin === "null" || !URL.canParse(origin)) return true;
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  return new URL(origin).host !== host;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The 403 page for a cross-site form post, in the visitor's language (cookie, then Accept-Language),
 * with the page security headers. Logged as a refusal: it is a visitor's browser or an attacker
 * doing what it should not, not a fault of ours.
 */
export function crossOriginRefusal(request: NextRequest, securityHeaders: Record<string, string>): Response {
  const locale = pageLocale({ cookie: request.cookies.get(localeCookie)?.value, acceptLanguage: request.headers.get("accept-language") });
  const t = pageMessages(locale).crossOrigin;
  logger.warn("cross-origin form post refused (403)", {
    method: request.method,
    path: request.nextUrl.pathname,
    origin: request.headers.get("origin")?.slice(0, 200),
  });
  const html = [
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t.title)}</title></head>`,
    `<body><main><h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(t.text)}</p><p><a href="/">${escapeHtml(t.home)}</a></p></main></body></html>`,
  ].join("");
  return new Response(html, {
    status: 403,
    headers: { ...securityHeaders, "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
