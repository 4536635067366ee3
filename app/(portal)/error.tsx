"use client";

import { useErrorTexts, useFormat } from "@/components/locale-provider";

/** A signed-in page that failed: what happened in the page's language, the reference the server logged, and a retry. */
export default function PortalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const texts = useErrorTexts();
  const format = useFormat();
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
