"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { chooseLocale } from "@/app/locale-action";
import type { Locale } from "@/lib/base/i18n";

/**
 * One button per language, each named in its own language. A form post, so it works without
 * JavaScript; the page's path (read here so it follows client-side navigation) is where it returns.
 */
export function LanguageSwitcher({ current, label, names }: { current: Locale; label: string; names: Record<Locale, string> }) {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  return (
    <form action={chooseLocale} className="language" aria-label={label}>
      <input type="hidden" name="return" value={query ? `${pathname}?${query}` : pathname} />
      {(Object.keys(names) as Locale[]).map((locale) => (
        <button key={locale} type="submit" name="locale" value={locale} lang={locale} aria-pressed={locale === current}>
          {names[locale]}
        </button>
      ))}
    </form>
  );
}
