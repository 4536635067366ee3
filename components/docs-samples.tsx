"use client";

import { createContext, useActionState, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import type { FormState } from "@/lib/adapters/portal/form-state";
import type { PageMessages } from "@/lib/base/i18n/page-messages";

type SampleTexts = PageMessages["docs"]["samples"];

/** What the "Create a key for the samples" action answers. */
export interface DocsKeyState extends FormState {
  /** The key just made: answered once, kept by the page in the tab's sessionStorage (only its hash is stored). */
  key?: string;
}

/** Where the tab keeps the docs key: sessionStorage, so it is gone with the tab and never sent to the server again. */
const storageKey = "docs-api-key";
const changed = "docs-api-key-changed";

function subscribe(onChange: () => void) {
  window.addEventListener(changed, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(changed, onChange);
    window.removeEventListener("storage", onChange);
  };
}

function keepKey(key: string) {
  sessionStorage.setItem(storageKey, key);
  window.dispatchEvent(new Event(changed));
}

/** The tab's docs key; null before the page runs (the server's render) and until one is made. */
function useDocsKey(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => sessionStorage.getItem(storageKey),
    () => null,
  );
}

const SampleKey = createContext<string | null>(null);

/**
 * The guide's samples with the reader's key: the panel that makes one (signed in, in the sandbox)
 * or says where to get one, and the context every `SampleKeyValue` of the samples reads.
 */
export function DocsSamples({
  signedIn,
  keyButton,
  loginHref,
  action,
  texts,
  children,
}: {
  signedIn: boolean;
  /** Whether the panel offers to make a key: signed in and in the sandbox. */
  keyButton: boolean;
  loginHref: string;
  action: (state: DocsKeyState, form: FormData) => Promise<DocsKeyState>;
  texts: SampleTexts;
  children: ReactNode;
}) {
  const stored = useDocsKey();
  const [state, create, pending] = useActionState(action, {});
  useEffect(() => {
    if (state.ok && state.key) keepKey(state.key);
  }, [state]);
  const key = stored ?? (state.ok ? (state.key ?? null) : null);
  return (
    <SampleKey value={key}>
      <section className="docs-key notice" aria-labelledby="docs-key-heading">
        <h2 id="docs-key-heading">{texts.heading}</h2>
        {key ? (
          <p>{texts.filled}</p>
        ) : signedIn ? (
          <p>{keyButton ? texts.signedIn : texts.production}</p>
        ) : (
          <p>
            {texts.signedOut} <a href={loginHref}>{texts.signIn}</a>
          </p>
        )}
        {keyButton ? (
          <form action={create}>
            <button type="submit" className={key ? "secondary" : undefined} disabled={pending}>
              {key ? texts.replace : texts.create}
            </button>
          </form>
        ) : null}
        {state.ok === false && state.message ? <p role="alert">{state.message}</p> : null}
        <p role="status" aria-live="polite" className="muted">
          {key ? texts.kept : ""}
        </p>
      </section>
      {children}
    </SampleKey>
  );
}

/**
 * Where a sample names the reader's key: the key once the tab has one (as the sample's language
 * writes a literal: a TypeScript string, or as is inside the shell's quotes), else the sample's own text.
 */
export function SampleKeyValue({ form, original }: { form: "shell" | "typescript" | "raw"; original: string }) {
  const key = useContext(SampleKey);
  if (!key) return original;
  return form === "typescript" ? JSON.stringify(key) : key;
}

/** A sample's Copy button: copies the sample as shown (with the reader's values), and says so. */
export function CopySample({ label, texts }: { label?: string; texts: PageMessages["secret"] }) {
  const button = useRef<HTMLButtonElement>(null);
  const [status, setStatus] = useState<"" | "copied" | "failed">("");
  const copy = async () => {
    const pre = button.current?.closest("figure")?.querySelector("pre");
    if (!pre) return;
    try {
      await navigator.clipboard.writeText(pre.innerText.replace(/\n$/, ""));
      setStatus("copied");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(pre);
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      setStatus("failed");
    }
  };
  return (
    <span className="copy-sample">
      <button ref={button} type="button" className="secondary" onClick={copy}>
        {texts.copy}
        {label ? <span className="visually-hidden"> {label}</span> : null}
      </button>
      <span role="status" aria-live="polite" className="muted">
        {status === "copied" ? texts.copied : status === "failed" ? texts.copyFailed : ""}
      </span>
    </span>
  );
}
