import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { WithCode } from "@/components/with-code";
import { listWebhooks } from "@/lib/domain/webhooks/list-webhooks";
import { deliveryLogPath } from "@/lib/adapters/portal/webhook-pages";
import { PortalNav, type NavSection } from "@/components/portal-nav";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requireAccount } from "@/lib/adapters/portal/session";

/** Nothing signed in is for search engines: an account's pages and the moderation desk (their pages set no robots of their own). */
export const metadata: Metadata = { robots: { index: false, follow: false } };

/**
 * The signed-in portal: every page under this group needs a session (a signed-out visitor goes to
 * sign-in and comes back). Each page and server action checks the session again itself: a layout
 * does not run for a server action.
 */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  const { account, ctx } = await requireAccount();
  const { shell, webhooks: webhookTexts, moderation } = pageMessages(await requestLocale());
  // The system stopped these (410 Gone, or 5 days of failures): said on every page until started or deleted.
  const stoppedBySystem = (await listWebhooks({ ctx })).filter((webhook) => !webhook.active && webhook.stopped_reason !== "owner");
  const sections: NavSection[] = [
    {
      heading: shell.listings,
      links: [
        { href: "/account/listings", label: shell.myListings },
        { href: "/account/listings/feeds", label: shell.feeds },
      ],
    },
    {
      heading: shell.apiSettings,
      links: [
        { href: "/settings/api/keys", label: shell.keys },
        { href: "/settings/api/apps", label: shell.apps },
        { href: "/settings/api/connections", label: shell.connections },
        { href: "/settings/api/webhooks", label: shell.webhooks },
        { href: "/settings/api/log", label: shell.apiLog },
        { href: "/settings/api/activity", label: shell.activity },
      ],
    },
    {
      heading: shell.account,
      links: [
        { href: "/account", label: shell.profile },
        ...(account.agency && account.agency.role !== "agent" ? [{ href: "/account/members", label: shell.members }] : []),
      ],
    },
    ...(account.isModerator
      ? [
          {
            heading: moderation.section,
            links: [
              { href: "/moderation", label: moderation.queueLink },
              { href: "/moderation/reports", label: moderation.reportsLink },
            ],
          },
        ]
      : []),
  ];
  return (
    <div className="portal">
      <PortalNav label={shell.portalNavigation} sections={sections} loading={shell.loading} />
      <div className="portal-content">
        {stoppedBySystem.map((webhook) => (
          <p key={webhook.id} className="notice warning" role="status">
            <WithCode text={webhookTexts.stoppedNotice} placeholder="url" code={webhook.url} />{" "}
            <Link href={deliveryLogPath(webhook.id)}>{webhookTexts.deliveryLog}</Link>
          </p>
        ))}
        {children}
      </div>
    </div>
  );
}
