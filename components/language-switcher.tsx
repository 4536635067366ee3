"use client";

import { usePathname, useSearchParams } from "next/navigation";
import type { Locale } from "@/lib/base/i18n";

/**
 * One button per language, each named in its own language. A form post to `action` (the layout's
 * server action), so it works without JavaScript; the page's path (read here so it follows
 * client-side navigation) is where it returns.
 */
export function LanguageSwitcher({
  action,
  current,
  label,
  names,
}: {
  action: (form: FormData) => Promise<void>;
  current: Locale;
  label: string;
  names: Record<Locale, string>;
}) {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  return (
    <form action={action} className="language" aria-label={label}>
      <input type="hidden" name="return" value={query ? `${pathname}?${query}` : pathname} />
      {(Object.keys(names) as Locale[]).map((locale) => (
        <button key={locale} type="submit" name="locale" value={locale} lang={locale} aria-pressed={locale === current}>
          {names[locale]}
        </button>
      ))}
    </form>
  );
}
