import Link from "next/link";
import { ImportStatus } from "@/components/import-status";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import type { PortalSession } from "@/lib/adapters/portal/session";
import { format, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { listImports } from "@/lib/domain/imports/list-imports";

/** How many of the latest imports the section shows. */
const shown = 10;

/** The account's latest bulk imports: state, counts, when sent, and a link to each one's line results. */
export async function ImportsSection({ ctx, locale }: { ctx: PortalSession["ctx"]; locale: Locale }) {
  const t = pageMessages(locale).listingImports;
  const { items: imports } = await listImports({ ctx, input: { per_page: shown } });
  const when = portalDateTime(locale, "minute");
  return (
    <section aria-labelledby="imports">
      <h2 id="imports">{t.section}</h2>
      <p>{t.sectionIntro}</p>
      {imports.length === 0 ? (
        <p className="empty">{t.none}</p>
      ) : (
        <ul className="imports">
          {imports.map((item) => {
            const date = when.format(item.createdAt);
            return (
              <li key={item.id}>
                <ImportStatus locale={locale} item={item} />
                <br />
                {format(locale, t.sent, { date })}{" "}
                <Link href={`/account/listings/imports/${item.id}`} aria-label={format(locale, t.openLabel, { date })}>
                  {t.open}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
