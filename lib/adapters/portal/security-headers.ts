/**
 * The one page whose styles may be inline: the API reference (/docs/api), Scalar's. Scalar is a Vue
 * application: it writes its theme into a `<style>` element it creates at run time and sets `style`
 * attributes (popover and drag positions), and the version that installs on Node 20 has no nonce
 * option for either, so under the nonce-only `style-src` of every other page it renders unstyled
 * and broken. Inline styles cannot run code; what an injected style could still do, load a
 * resource that leaks what the page shows, stays blocked by `img-src`, `font-src` and
 * `connect-src`, which name no other origin. Scripts keep the nonce on this page too.
 */
export const inlineStylePaths: readonly string[] = ["/docs/api"];

/** Whether a page path gets `style-src 'unsafe-inline'` (exactly the listed paths, nothing beneath them). */
export const allowsInlineStyles = (pathname: string): boolean => inlineStylePaths.includes(pathname.replace(/\/+$/, "") || "/");

/**
 * The headers of every page (docs/portal.md, "Security headers"). The policy allows scripts only by this
 * request's nonce ('strict-dynamic' lets the framework's scripts load the chunks they need), styles
 * from our own files or by the nonce (inline ones on the API reference alone: `inlineStyles`),
 * connections and forms to this origin only, images from it and from the photo store when photos are
 * kept elsewhere (Vercel Blob); nothing may frame a page. API answers do not carry these: they are
 * JSON, never rendered as documents.
 */
export function pageSecurityHeaders(
  nonce: string,
  { development, photoOrigin, inlineStyles = false }: { development: boolean; photoOrigin?: string; inlineStyles?: boolean },
): Record<string, string> {
  const policy = [
    "default-src 'self'",
    // React's development build evaluates code for its error overlays; the production build never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // A nonce in style-src makes browsers ignore 'unsafe-inline', so the reference's policy names none.
    `style-src 'self' ${development || inlineStyles ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
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
