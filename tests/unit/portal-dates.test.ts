import { describe, expect, it } from "vitest";
import { bucharestLocalInput, bucharestLocalTime, portalDateTime } from "@/lib/adapters/portal/dates";

describe("times typed into the portal, read on Romania's clock", () => {
  it.each([
    ["2026-01-01T00:00", "2025-12-31T22:00:00.000Z"],
    ["2026-07-01T12:00", "2026-07-01T09:00:00.000Z"],
    [" 2026-07-01T12:00 ", "2026-07-01T09:00:00.000Z"],
    ["2026-03-29T02:59", "2026-03-29T00:59:00.000Z"],
    ["2026-03-29T04:00", "2026-03-29T01:00:00.000Z"],
    ["2026-10-25T02:59", "2026-10-24T23:59:00.000Z"],
    ["2026-10-25T04:00", "2026-10-25T02:00:00.000Z"],
  ])("reads %j as the instant %s", (typed, instant) => {
    expect(bucharestLocalTime(typed)?.toISOString()).toBe(instant);
  });

  it("reads a time of the hour repeated when summer time ends as the earlier of its two instants", () => {
    expect(bucharestLocalTime("2026-10-25T03:30")?.toISOString()).toBe("2026-10-25T00:30:00.000Z");
    expect(bucharestLocalTime("2026-10-25T03:00")?.toISOString()).toBe("2026-10-25T00:00:00.000Z");
  });

  it("reads a time skipped when summer time starts with the offset before the change", () => {
    expect(bucharestLocalTime("2026-03-29T03:30")?.toISOString()).toBe("2026-03-29T01:30:00.000Z");
  });

  it.each([
    "",
    "x",
    "2026-02-30T10:00",
    "2026-01-01T24:00",
    "2026-01-01T10:60",
    "2026-13-01T10:00",
    "2026-01-01 10:00",
    "2026-01-01T10:00:00",
  ])("refuses %j", (typed) => {
    expect(bucharestLocalTime(typed)).toBeNull();
  });

  it("writes an instant back as the field's value on Romania's clock, both instants of the repeated hour alike", () => {
    expect(bucharestLocalInput(new Date("2026-07-01T09:00:00Z"))).toBe("2026-07-01T12:00");
    expect(bucharestLocalInput(new Date("2025-12-31T22:00:00Z"))).toBe("2026-01-01T00:00");
    expect(bucharestLocalInput(new Date("2026-10-25T00:30:00Z"))).toBe("2026-10-25T03:30");
    expect(bucharestLocalInput(new Date("2026-10-25T01:30:00Z"))).toBe("2026-10-25T03:30");
  });

  it("round-trips every minute of a day that changes the clock", () => {
    const start = Date.parse("2026-03-28T22:00:00Z");
    for (let minute = 0; minute < 24 * 60; minute += 7) {
      const at = new Date(start + minute * 60_000);
      expect(bucharestLocalTime(bucharestLocalInput(at))?.getTime()).toBe(at.getTime());
    }
  });
});

describe("dates shown on portal pages", () => {
  it("names Romania's zone and uses the page's language", () => {
    const at = new Date("2026-07-01T09:05:00Z");
    expect(portalDateTime("en").format(at)).toMatch(/^1 Jul 2026, 12:05 (EEST|GMT\+3)$/);
    expect(portalDateTime("ro").format(at)).toMatch(/^1 iul\. 2026, 12:05 (EEST|GMT\+3)$/);
    expect(portalDateTime("en", "day").format(at)).toBe("1 Jul 2026");
    expect(portalDateTime("en", "second").format(at)).toMatch(/12:05:00/);
  });
});
