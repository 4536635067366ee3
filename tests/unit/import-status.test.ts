import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ImportStatus } from "@/components/import-status";
import { format, locales } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";

const lines = { total: 10, done: 4, created: 3, updated: 1, unchanged: 0, refused: 0, stale: 0, withdrawn: 0 };
const shown = (locale: (typeof locales)[number], item: Parameters<typeof ImportStatus>[0]["item"]) =>
  renderToStaticMarkup(createElement(ImportStatus, { locale, item }));

describe("an import's status on My listings", () => {
  it.each(locales)("(%s) says why a failed import stopped, and shows the final counts of every ended one", (locale) => {
    const t = pageMessages(locale).listingImports;
    const failed = shown(locale, { status: "failed", errorCode: "key_revoked", lines });
    expect(failed).toContain(`<strong>${t.statuses.failed}</strong>`);
    expect(failed).toContain(format(locale, t.failedBecause, { reason: t.failures.key_revoked }));
    expect(failed).toContain(format(locale, t.summary, lines));
    const cancelled = shown(locale, { status: "cancelled", errorCode: null, lines });
    expect(cancelled).toContain(`<strong>${t.statuses.cancelled}</strong>`);
    expect(cancelled).toContain(format(locale, t.summary, lines));
    const running = shown(locale, { status: "running", errorCode: null, lines });
    expect(running).toContain(format(locale, t.progress, lines));
    expect(running).not.toContain(format(locale, t.summary, lines));
  });

  it.each(locales)(
    "(%s) says why a full import was refused, and counts the stale lines and withdrawals only when there are some",
    (locale) => {
      const t = pageMessages(locale).listingImports;
      const refusal = { code: "too_many_withdrawals" as const, withdrawals: 7, limit: 5 };
      const untouched = { ...lines, done: 0, created: 0, updated: 0 };
      const refused = shown(locale, { status: "refused", errorCode: null, refusal, lines: untouched });
      expect(refused).toContain(`<strong>${t.statuses.refused}</strong>`);
      expect(refused).toContain(format(locale, t.refusedBecause, { withdrawals: 7, limit: 5 }));
      const synced = shown(locale, { status: "completed", errorCode: null, refusal: null, lines: { ...lines, stale: 1, withdrawn: 2 } });
      expect(synced).toContain(
        locale === "en"
          ? "1 older than the listing, of 10 lines; 2 withdrawn (not in the file)"
          : "mai vechi decât anunțul: 1, din 10 linii; retrase (lipsă din fișier): 2",
      );
      expect(format(locale, t.summary, lines)).not.toMatch(/withdrawn|retrase|older|vechi/);
    },
  );
});
