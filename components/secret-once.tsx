"use client";

import { useRef, useState } from "react";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import "./secret-once.css";

/**
 * A secret shown once, with its label, a Copy button (the clipboard, or else the text selected for
 * the keyboard) and the warning that it will not be shown again, saying how it is `stored`: hashed
 * (keys, client secrets) or encrypted (webhook signing secrets). The copy result is announced.
 */
export function SecretOnce({
  label,
  value,
  stored,
  texts,
}: {
  label: string;
  value: string;
  stored: "hashed" | "encrypted";
  texts: PageMessages["secret"];
}) {
  const code = useRef<HTMLElement>(null);
  const [status, setStatus] = useState<"" | "copied" | "failed">("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setStatus("copied");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(code.current!);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      setStatus("failed");
    }
  };
  return (
    <div className="notice warning">
      <p>
        <strong>{label}</strong>
      </p>
      <div className="secret">
        <code ref={code} data-secret>
          {value}
        </code>
        <button type="button" className="secondary" onClick={copy}>
          {texts.copy}
        </button>
      </div>
      <p role="status" aria-live="polite">
        {status === "copied" ? texts.copied : status === "failed" ? texts.copyFailed : ""}
      </p>
      <p>{stored === "encrypted" ? texts.warningEncrypted : texts.warning}</p>
    </div>
  );
}
