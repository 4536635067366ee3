"use client";

import { useRef, useState } from "react";
import type { PageMessages } from "@/lib/platform/i18n/page-messages";

/**
 * The whole key with a Copy button. The clipboard needs a secure context and the browser's consent;
 * when it refuses, the key's text is selected instead and the holder is told to copy it. The result
 * is announced (a live region that is always there, so the change is read).
 */
export function CopySecret({ value, texts }: { value: string; texts: PageMessages["apiKeys"]["created"] }) {
  const code = useRef<HTMLElement>(null);
  const [result, setResult] = useState<"none" | "copied" | "failed">("none");

  function selectKey() {
    const selection = window.getSelection();
    if (!code.current || !selection) return;
    const range = document.createRange();
    range.selectNodeContents(code.current);
    selection.removeAllRanges();
    selection.addRange(range);
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setResult("copied");
    } catch {
      selectKey();
      setResult("failed");
    }
  }

  return (
    <div className="secret">
      <span className="muted">{texts.key}</span>
      <code ref={code}>{value}</code>
      <button type="button" className="secondary" onClick={copy}>
        {texts.copy}
      </button>
      <span role="status" className={result === "failed" ? "field-error" : "copied"}>
        {result === "copied" ? texts.copied : result === "failed" ? texts.copyFailed : ""}
      </span>
    </div>
  );
}
