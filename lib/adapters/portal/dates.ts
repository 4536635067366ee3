import type { Locale } from "@/lib/base/i18n";
import { serviceTimeZone } from "@/lib/base/time-zone";

/**
 * Dates on portal pages: in the page's language, on Romania's clock (the service's country; the
 * server's own zone would change with where it runs), with the zone's name so nobody guesses.
 * `day` for dates alone, `minute` for when something happened, `second` for the API log.
 */
export function portalDateTime(locale: Locale, precision: "day" | "minute" | "second" = "minute"): Intl.DateTimeFormat {
  const time =
    precision === "day"
      ? {}
      : {
          hour: "2-digit",
          minute: "2-digit",
          hourCycle: "h23",
          timeZoneName: "short",
          ...(precision === "second" ? { second: "2-digit" } : {}),
        };
  return new Intl.DateTimeFormat(locale === "ro" ? "ro-RO" : "en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: serviceTimeZone,
    ...(time as Intl.DateTimeFormatOptions),
  });
}
