import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import type { ImportSummary } from "@/lib/domain/imports/list-imports";

/** An import's state, why it stopped when it failed, and its counts: the totals once it has ended. */
export function ImportStatus({
  locale,
  item,
}: {
  locale: Locale;
  item: Pick<ImportSummary, "status" | "errorCode" | "lines"> & Partial<Pick<ImportSummary, "refusal">>;
}) {
  const t = pageMessages(locale).listingImports;
  const pending = item.status === "queued" || item.status === "running";
  return (
    <>
      <strong>{t.statuses[item.status]}</strong>
      {item.errorCode ? ` ${format(locale, t.failedBecause, { reason: t.failures[item.errorCode] })}` : ""}
      {item.refusal
        ? `: ${format(locale, t.refusedBecause, { withdrawals: item.refusal.withdrawals, limit: item.refusal.limit })}`
        : ""} · {pending ? format(locale, t.progress, item.lines) : format(locale, t.summary, item.lines)}
    </>
  );
}
