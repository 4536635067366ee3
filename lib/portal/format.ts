import type { Locale } from "@/lib/platform/i18n";

const tags: Record<Locale, string> = { ro: "ro-RO", en: "en-GB" };

/** A day in the page's language ("25 Nov 2026", "25 nov. 2026"), in UTC so that server and reader agree. */
export const formatDay = (locale: Locale, date: Date): string =>
  new Intl.DateTimeFormat(tags[locale], { dateStyle: "medium", timeZone: "UTC" }).format(date);

/** A moment to the second in the page's language, in UTC, with the zone said. */
export const formatMoment = (locale: Locale, date: Date): string =>
  new Intl.DateTimeFormat(tags[locale], { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }).format(date) + " UTC";
