import type { PortalSession } from "@/lib/adapters/portal/session";
import { format, type Locale } from "@/lib/base/i18n";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { listAccountListings } from "@/lib/domain/listings/list";
import { triggerableEventTypes } from "@/lib/domain/listings/trigger-sandbox-event";
import { SandboxEventForm } from "./sandbox-event-form";

/** How many of the latest listings the code field suggests; any other code can still be typed. */
const suggested = 100;

/** The sandbox's "Send a test event" section of the webhooks page, with the account's latest listings to pick from. */
export async function SandboxEventSection({
  ctx,
  locale,
  token,
  texts,
}: {
  ctx: PortalSession["ctx"];
  locale: Locale;
  token: string;
  texts: PageMessages;
}) {
  const t = texts.webhooks.sandboxEvent;
  const { page } = await listAccountListings({ ctx, input: { query: { per_page: suggested } } });
  const listings = page.items.map(({ row }) => ({
    code: row.code,
    label: format(locale, t.listing, { title: String(row.fields.title ?? row.code), status: texts.myListings.statuses[row.status] }),
  }));
  return (
    <section className="card" aria-labelledby="sandbox-event">
      <h2 id="sandbox-event">{t.heading}</h2>
      <p>{t.intro}</p>
      <SandboxEventForm eventTypes={[...triggerableEventTypes]} listings={listings} token={token} texts={t} />
    </section>
  );
}
