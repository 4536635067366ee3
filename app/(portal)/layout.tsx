import type { ReactNode } from "react";
import { PortalNav, type NavSection } from "@/components/portal-nav";
import { requestLocale } from "@/app/locale";
import { pageMessages } from "@/lib/platform/i18n/page-messages";
import { requireAccount } from "@/lib/portal/session";

/**
 * The signed-in portal: every page under this group needs a session (a signed-out visitor goes to
 * sign-in and comes back). Each page and server action checks the session again itself: a layout
 * does not run for a server action.
 */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  const { account } = await requireAccount();
  const { shell } = pageMessages(await requestLocale());
  const sections: NavSection[] = [
    {
      heading: shell.apiSettings,
      links: [
        { href: "/settings/api/keys", label: shell.keys },
        { href: "/settings/api/apps", label: shell.apps },
        { href: "/settings/api/connections", label: shell.connections },
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
  ];
  return (
    <div className="portal">
      <PortalNav label={shell.portalNavigation} sections={sections} />
      <div className="portal-content">{children}</div>
    </div>
  );
}
