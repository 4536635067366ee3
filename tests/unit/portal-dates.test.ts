import { describe, expect, it } from "vitest";
import { portalDateTime } from "@/lib/adapters/portal/dates";

describe("dates shown on portal pages", () => {
  it("names Romania's zone and uses the page's language", () => {
    const at = new Date("2026-07-01T09:05:00Z");
    expect(portalDateTime("en").format(at)).toMatch(/^1 Jul 2026, 12:05 (EEST|GMT\+3)$/);
    expect(portalDateTime("ro").format(at)).toMatch(/^1 iul\. 2026, 12:05 (EEST|GMT\+3)$/);
    expect(portalDateTime("en", "day").format(at)).toBe("1 Jul 2026");
    expect(portalDateTime("en", "second").format(at)).toMatch(/12:05:00/);
  });
});
