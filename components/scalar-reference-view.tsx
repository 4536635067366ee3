"use client";

// First: zod's jitless mode, before Scalar's modules build their schemas.
import "./zod-jitless";
import { ApiReferenceReact, type AnyApiReferenceConfiguration } from "@scalar/api-reference-react";
// Before Scalar's own: its preflight must come after these resets, to win where both set a property.
import "./scalar-reference.css";
import "@scalar/api-reference-react/style.css";
import { useEffect, useMemo, useRef } from "react";
import { keepAccessible, type AccessibilityLabels } from "./scalar-accessibility";

/**
 * Scalar's API reference, bundled (no CDN) and held to this origin:
 *
 * - no font service (`withDefaultFonts: false`: the portal's own fonts), no telemetry, no request
 *   proxy (requests go from the browser straight to this server), no AI agent and no developer
 *   toolbar (its "share" uploads the document to Scalar's service), no "Open API Client" link to
 *   Scalar's web app: nothing on the page calls
 *   outside, which e2e/api-reference.spec.ts checks request by request;
 * - "try it" goes to this origin's `/api/v1` (the document's own server is the relative `/api/v1`),
 *   with the bearer key the reader pastes into the Authentication section, kept in the page's memory
 *   only (`persistAuth: false`: never in localStorage, gone when the tab closes).
 *
 * Light only, like the portal, in its colours where Scalar's are too faint (scalar-reference.css), and
 * with the markup repairs of scalar-accessibility.ts. Loaded by scalar-reference.tsx only in the
 * browser, so `window` is there.
 */
export default function ScalarReferenceView({
  documentUrl,
  serverDescription,
  labels,
}: {
  documentUrl: string;
  serverDescription: string;
  labels: AccessibilityLabels;
}) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => (root.current ? keepAccessible(root.current, labels) : undefined), [labels]);
  const configuration = useMemo<AnyApiReferenceConfiguration>(
    () => ({
      url: documentUrl,
      servers: [{ url: `${window.location.origin}/api/v1`, description: serverDescription }],
      authentication: { preferredSecurityScheme: "apiKey", securitySchemes: { apiKey: { token: "" } } },
      persistAuth: false,
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: "never",
      agent: { disabled: true },
      documentDownloadType: "json",
      // "Open API Client" links to Scalar's web app (client.scalar.com) with this document: not from here.
      hideClientButton: true,
      // The portal is light only, and its contrast is checked in light (scalar-reference.css).
      forceDarkModeState: "light",
      hideDarkModeToggle: true,
    }),
    [documentUrl, serverDescription],
  );
  return (
    <div ref={root}>
      <ApiReferenceReact configuration={configuration} />
    </div>
  );
}
