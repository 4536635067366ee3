"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export interface NavSection {
  heading: string;
  links: { href: string; label: string }[];
}

/** The portal's settings navigation; the current page's link carries `aria-current`. */
export function PortalNav({ label, sections }: { label: string; sections: NavSection[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="portal-nav">
      {sections.map((section) => (
        <div key={section.heading}>
          <p className="nav-heading">{section.heading}</p>
          <ul>
            {section.links.map((link) => {
              const current = pathname === link.href || pathname.startsWith(`${link.href}/`);
              return (
                <li key={link.href}>
                  <Link href={link.href} aria-current={current ? "page" : undefined}>
                    {link.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
