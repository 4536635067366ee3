import type { ReactNode } from "react";

/**
 * A link to the API reference (`/docs/api`) that always loads the page in full, never client-side:
 * the reference has a content security policy of its own (inline styles for Scalar,
 * lib/adapters/portal/security-headers.ts), which a client-side navigation would not bring.
 */
export function ReferenceLink({ children, className }: { children: ReactNode; className?: string }) {
  return (
    // eslint-disable-next-line @next/next/no-html-link-for-pages -- a full load on purpose (see above).
    <a href="/docs/api" className={className}>
      {children}
    </a>
  );
}
