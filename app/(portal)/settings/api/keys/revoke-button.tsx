"use client";

import { useEffect, useRef, useState } from "react";
import { SubmitButton } from "@/components/forms/form-kit";
import { format } from "@/lib/platform/i18n/format";
import type { PageMessages } from "@/lib/platform/i18n/page-messages";
import { revokeKeyAction } from "./actions";

/**
 * Revocation in two steps: "Revoke" turns into the question "Revoke “name”?" (which sends the form)
 * and Cancel. Focus follows: onto the question when it appears, back onto "Revoke" after Cancel or Escape.
 */
export function RevokeButton({ id, name, texts }: { id: string; name: string; texts: PageMessages["apiKeys"]["revoke"] }) {
  const [confirming, setConfirming] = useState(false);
  const start = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const cancelled = useRef(false);
  useEffect(() => {
    if (confirming) form.current?.querySelector<HTMLButtonElement>("button[type=submit]")?.focus();
    else if (cancelled.current) start.current?.focus();
  }, [confirming]);

  const cancel = () => {
    cancelled.current = true;
    setConfirming(false);
  };

  if (!confirming) {
    return (
      <button
        type="button"
        className="secondary"
        ref={start}
        aria-label={format(texts.buttonLabel, { name })}
        onClick={() => setConfirming(true)}
      >
        {texts.button}
      </button>
    );
  }
  return (
    <form
      ref={form}
      action={revokeKeyAction}
      className="confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") cancel();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <p className="hint">{texts.explain}</p>
      <div className="actions">
        <SubmitButton className="danger" pending={texts.pending}>
          {format(texts.confirm, { name })}
        </SubmitButton>
        <button type="button" className="secondary" onClick={cancel}>
          {texts.cancel}
        </button>
      </div>
    </form>
  );
}
