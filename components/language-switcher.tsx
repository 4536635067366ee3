"use client";

import { usePathname, useSearchParams } from "next/navigation";
import type { Locale } from "@/lib/base/i18n";
import "./language-switcher.css";

/**
 * One button per language, each named in its own language. A form post to `action` (the layout's
 * server action), so it works without JavaScript; the page's path (read here so it follows
 * client-side navigation) is where it returns. Signed in, the choice is the account's language (its
 * pages anywhere, its mails, its keys' API answers): the switcher says so in words beside the
 * buttons, and what that changes as its description.
 */
export function LanguageSwitcher({
  action,
  current,
  label,
  names,
  account,
}: {
  action: (form: FormData) => Promise<void>;
  current: Locale;
  label: string;
  names: Record<Locale, string>;
  account?: { label: string; hint: string };
}) {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  return (
    <form
      action={action}
      className="language"
      aria-label={account ? undefined : label}
      aria-labelledby={account ? "language-label" : undefined}
      aria-describedby={account ? "language-hint" : undefined}
    >
      {account ? (
        <>
          <span id="language-label" className="language-label" title={account.hint}>
            {account.label}
          </span>
          <span id="language-hint" hidden>
            {account.hint}
          </span>
        </>
      ) : null}
      <input type="hidden" name="return" value={query ? `${pathname}?${query}` : pathname} />
      {(Object.keys(names) as Locale[]).map((locale) => (
        <button key={locale} type="submit" name="locale" value={locale} lang={locale} aria-pressed={locale === current}>
          {names[locale]}
        </button>
      ))}
    </form>
  );
}
