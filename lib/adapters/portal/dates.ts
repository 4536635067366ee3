import { TZDate } from "@date-fns/tz";
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

const hourMs = 60 * 60 * 1000;
const localInput = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const twoDigits = (n: number) => String(n).padStart(2, "0");

/**
 * A `datetime-local` field's value (`2026-11-25T14:30`) read on Romania's clock, as the portal shows
 * times; null for anything else. In the hour repeated when summer time ends, the earlier one; a time
 * skipped when summer time starts is read with the offset before the change.
 */
export function bucharestLocalTime(value: string): Date | null {
  const typed = value.trim();
  const match = localInput.exec(typed);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  const at = new TZDate(year, month - 1, day, hour, minute, serviceTimeZone).getTime();
  // The zone's data gives the later instant of a repeated hour: the earlier one shows the same time.
  return new Date(bucharestLocalInput(new Date(at - hourMs)) === typed ? at - hourMs : at);
}

/** An instant as a `datetime-local` field's value on Romania's clock. */
export function bucharestLocalInput(at: Date): string {
  const local = new TZDate(at.getTime(), serviceTimeZone);
  return `${local.getFullYear()}-${twoDigits(local.getMonth() + 1)}-${twoDigits(local.getDate())}T${twoDigits(local.getHours())}:${twoDigits(local.getMinutes())}`;
}
