"use client";

import dynamic from "next/dynamic";
import { createContext, useContext } from "react";
import type { AccessibilityLabels } from "./scalar-accessibility";

/** The text shown while the reference's code loads (the dynamic import's fallback takes no props). */
const LoadingText = createContext("");

function Loading() {
  return <p aria-live="polite">{useContext(LoadingText)}</p>;
}

// Scalar's reference (Vue inside a React wrapper, about 1 MB of script and its CSS) is loaded on this
// page alone and only in the browser: it reads `window` when it starts, and no other page pays for it.
const ScalarView = dynamic(() => import("./scalar-reference-view"), { ssr: false, loading: Loading });

/**
 * The API reference of /docs/api: Scalar's, from the OpenAPI document in the page's language.
 * What it is allowed to do (no request outside this origin, the key in the tab only) is set in
 * scalar-reference-view.tsx.
 */
export function ScalarReference({
  documentUrl,
  serverDescription,
  loading,
  labels,
}: {
  documentUrl: string;
  serverDescription: string;
  loading: string;
  labels: AccessibilityLabels;
}) {
  return (
    <LoadingText value={loading}>
      <div className="api-reference">
        {/* A new reference when the language changes (the switcher keeps the page): its document is another. */}
        <ScalarView key={documentUrl} documentUrl={documentUrl} serverDescription={serverDescription} labels={labels} />
      </div>
    </LoadingText>
  );
}
