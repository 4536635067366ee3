import type { Locale } from "@/lib/platform/i18n";

/**
 * Dates on portal pages: in the page's language, on Romania's clock (the service's country; the
 * server's own zone would change with where it runs), with the zone's name so nobody guesses.
 */
export function portalDateTime(locale: Locale): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale === "ro" ? "ro-RO" : "en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Europe/Bucharest",
    timeZoneName: "short",
  });
}
