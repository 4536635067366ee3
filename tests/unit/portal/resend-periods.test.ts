import { describe, expect, it } from "vitest";
import { format, locales } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { resendPeriods } from "@/lib/adapters/portal/webhook-pages";

describe("the periods failed deliveries are resent from", () => {
  const now = new Date("2026-11-29T06:41:00Z");

  it("start an hour to the 30 days the log keeps before now", () => {
    const periods = resendPeriods(now);
    expect(periods.map((period) => [period.id, period.since.toISOString()])).toEqual([
      ["hour", "2026-11-29T05:41:00.000Z"],
      ["sixHours", "2026-11-29T00:41:00.000Z"],
      ["day", "2026-11-28T06:41:00.000Z"],
      ["threeDays", "2026-11-26T06:41:00.000Z"],
      ["week", "2026-11-22T06:41:00.000Z"],
      ["month", "2026-10-30T06:41:00.000Z"],
    ]);
  });

  it.each(locales)("(%s) are dated as every other date of the portal, not in the browser's own format", (locale) => {
    const day = resendPeriods(now).find((period) => period.id === "day")!;
    const label = format(locale, pageMessages(locale).webhooks.log.resendFailed.periods.day, {
      date: portalDateTime(locale, "minute").format(day.since),
    });
    expect(label).toMatch(locale === "en" ? /28 Nov 2026, 08:41 (EET|GMT\+2)/ : /28 nov\. 2026, 08:41 (EET|GMT\+2)/);
    expect(label).not.toContain("11/28/2026");
  });
});
