"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export interface NavSection {
  heading: string;
  links: { href: string; label: string }[];
}

/**
 * The portal's settings navigation; the current page's link carries `aria-current`: the longest
 * link the path is at or under, so `/account/listings` is not also the profile's (`/account`).
 */
export function PortalNav({ label, sections }: { label: string; sections: NavSection[] }) {
  const pathname = usePathname();
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
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
