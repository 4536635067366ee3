import { describe, expect, it } from "vitest";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { lastPullText, reportedFailingFeeds } from "@/lib/adapters/portal/feeds-page";
import type { FeedView } from "@/lib/domain/feeds/fields";

const now = new Date("2026-11-29T12:00:00Z");
const hour = 3_600_000;

const feed = (overrides: Partial<FeedView>): FeedView => ({
  id: "feed_0000000000000000",
  url: "https://crm.example.com/export.ndjson",
  mode: "upsert",
  max_withdrawals: null,
  interval_minutes: 60,
  next_pull_at: now.toISOString(),
  pulling: false,
  last_pull: null,
  failing_since: null,
  created_at: now.toISOString(),
  ...overrides,
});

describe("the Feeds page", () => {
  it("warns about a feed whose pulls have all failed for 24 hours, not before, and not about one that works", () => {
    const day = feed({ id: "feed_day", failing_since: new Date(now.getTime() - 24 * hour).toISOString() });
    const hours = feed({ id: "feed_hours", failing_since: new Date(now.getTime() - 23 * hour).toISOString() });
    expect(reportedFailingFeeds([day, hours, feed({ id: "feed_ok" })], now).map((f) => f.id)).toEqual(["feed_day"]);
  });

  it("says the last pull in the page's language, a failure with the server's status or the error's words", () => {
    const at = now.toISOString();
    const failed = feed({ last_pull: { at, outcome: "failed", http_status: 503, error_code: "http_error", import_id: null } });
    const timeout = feed({ last_pull: { at, outcome: "failed", http_status: null, error_code: "timeout", import_id: null } });
    const unknown = feed({ last_pull: { at, outcome: "failed", http_status: null, error_code: "something_new", import_id: null } });
    const unchanged = feed({ last_pull: { at, outcome: "unchanged", http_status: 304, error_code: null, import_id: null } });
    const en = portalDateTime("en");
    expect(lastPullText(failed, "en", en)).toBe(`${en.format(now)}: failed, the server answered 503`);
    expect(lastPullText(timeout, "en", en)).toContain("the server did not answer in time");
    expect(lastPullText(unknown, "en", en)).toContain("error something_new");
    expect(lastPullText(unchanged, "en", en)).toBe(`${en.format(now)}: unchanged (304), nothing imported`);
    expect(lastPullText(feed({}), "en", en)).toBe("Not pulled yet");
    const ro = portalDateTime("ro");
    expect(lastPullText(failed, "ro", ro)).toBe(`${ro.format(now)}: eșuată, serverul a răspuns 503`);
    expect(lastPullText(feed({}), "ro", ro)).toBe("Nepreluat încă");
  });
});
