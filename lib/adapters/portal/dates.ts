import type { Locale } from "@/lib/base/i18n";

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
    timeZone: "Europe/Bucharest",
    ...(time as Intl.DateTimeFormatOptions),
  });
}

const portalZone = "Europe/Bucharest";
const dayMs = 24 * 60 * 60 * 1000;
const localInput = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** How far Romania's clock is ahead of UTC at an instant, in milliseconds. */
function zoneOffsetMs(at: number): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: portalZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * A `datetime-local` field's value (`2026-11-25T14:30`) read on Romania's clock, as the portal shows
 * times; null for anything else. In the hour repeated when summer time ends, the earlier one.
 */
export function bucharestLocalTime(value: string): Date | null {
  const match = localInput.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  if (new Date(wall).getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The zone's offsets a day either side: the instants at this wall time are among wall − offset.
  const offsets = new Set([zoneOffsetMs(wall - dayMs), zoneOffsetMs(wall + dayMs)]);
  const instants = [...offsets].map((offset) => wall - offset).filter((at) => at + zoneOffsetMs(at) === wall);
  // A time skipped when summer time starts has no instant: read it with the offset before the change.
  return new Date(instants.length > 0 ? Math.min(...instants) : wall - zoneOffsetMs(wall - dayMs));
}

/** An instant as a `datetime-local` field's value on Romania's clock. */
export function bucharestLocalInput(at: Date): string {
  return new Date(at.getTime() + zoneOffsetMs(at.getTime())).toISOString().slice(0, 16);
}
