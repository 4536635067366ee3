"use client";

import Link, { useLinkStatus } from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import "./portal-nav.css";

export interface NavSection {
  heading: string;
  links: { href: string; label: string }[];
}

/**
 * The portal's settings navigation; the current page's link carries `aria-current`: the longest
 * link the path is at or under, so `/account/listings` is not also the profile's (`/account`).
 * The portal's pages have no loading state (so that each comes whole in the first HTML, with or
 * without JavaScript, and a not-found is a real 404): while the page of a link pressed here is on
 * its way, the link shows a hint and the navigation says "Loading…".
 */
export function PortalNav({ label, sections, loading }: { label: string; sections: NavSection[]; loading: string }) {
  const pathname = usePathname();
  const [pendingHref, setPendingHref] = useState<string | null>(null);
  // Only the link whose navigation ended clears the state: another one may have been pressed since.
  const report = useCallback(
    (href: string, pending: boolean) => setPendingHref((current) => (pending ? href : current === href ? null : current)),
    [],
  );
  const current = sections
    .flatMap((section) => section.links.map((link) => link.href))
    .filter((href) => pathname === href || pathname.startsWith(`${href}/`))
    .sort((a, b) => b.length - a.length)[0];
  return (
    <nav aria-label={label} className="portal-nav">
      {sections.map((section) => (
        <div key={section.heading}>
          <p className="nav-heading">{section.heading}</p>
          <ul>
            {section.links.map((link) => (
              <li key={link.href}>
                <Link href={link.href} aria-current={link.href === current ? "page" : undefined}>
                  {link.label}
                  <PendingHint href={link.href} report={report} />
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {/* A polite live region rather than role="status": the page's own status messages (a saved form) stay the only status in it. */}
      <p aria-live="polite" className="nav-pending">
        {pendingHref ? loading : null}
      </p>
    </nav>
  );
}

/** Inside a link (where `useLinkStatus` reads its navigation): a hint beside the label, and the state reported to the navigation. */
function PendingHint({ href, report }: { href: string; report: (href: string, pending: boolean) => void }) {
  const { pending } = useLinkStatus();
  useEffect(() => report(href, pending), [href, pending, report]);
  return <span aria-hidden="true" className={pending ? "link-hint pending" : "link-hint"} />;
}
