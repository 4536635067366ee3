import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference";

export const metadata: Metadata = { title: "API reference – Listings platform" };

export default function ApiReferencePage() {
  return (
    <>
      <h1>API reference</h1>
      <p className="muted">
        Generated from <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Paste a sandbox key to send real requests from this page;
        the key stays in this browser tab.
      </p>
      <ApiReference specUrl="/api/v1/openapi.json" />
    </>
  );
}
