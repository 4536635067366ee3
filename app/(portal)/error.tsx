"use client";

import { useSyncExternalStore } from "react";
import { format } from "@/lib/base/i18n/format";
import { shellTexts } from "@/lib/base/i18n/pages/shell";

/** A signed-in page that failed: what happened in the page's language, the reference the server logged, and a retry. */
export default function PortalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const lang = useSyncExternalStore(noChanges, pageLanguage, () => "ro");
  const texts = shellTexts[lang === "en" ? "en" : "ro"];
  return (
    <section role="alert">
      <h1>{texts.errorTitle}</h1>
      <p>{format(texts.errorText, { reference: error.digest ?? "-" })}</p>
      <button type="button" onClick={reset}>
        {texts.retry}
      </button>
    </section>
  );
}

// The page's language is set by the server on <html lang> and never changes while this boundary is shown.
const noChanges = () => () => undefined;
const pageLanguage = () => document.documentElement.lang;
