/**
 * The headers of every page (README "Security headers"). The policy allows scripts only by this
 * request's nonce ('strict-dynamic' lets the framework's scripts load the chunks they need), styles
 * from our own files or by the nonce, connections and forms to this origin only, images from it and
 * from the photo store when photos are kept elsewhere (Vercel Blob); nothing
 * may frame a page. API answers do not carry these: they are JSON, never rendered as documents.
 */
export function pageSecurityHeaders(
  nonce: string,
  { development, photoOrigin }: { development: boolean; photoOrigin?: string },
): Record<string, string> {
  const policy = [
    "default-src 'self'",
    // React's development build evaluates code for its error overlays; the production build never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' ${development ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    // Photos come from this origin (/blobs/…) or, with Vercel Blob, from the store's own.
    `img-src 'self' data: blob:${photoOrigin ? ` ${photoOrigin}` : ""}`,
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "Content-Security-Policy": policy,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  };
}

/** A fresh nonce for each page request: 128 random bits, base64 as CSP's nonce-source expects. */
export const newNonce = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
