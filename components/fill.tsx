import { Fragment, type ReactNode } from "react";
import type { Locale } from "@/lib/base/i18n";
import { formatParts } from "@/lib/base/i18n/format";

/** A catalogue text whose arguments are filled by elements (links, code) rather than strings. */
export function fill(locale: Locale, message: string, parts: Readonly<Record<string, ReactNode>>): ReactNode[] {
  return formatParts<ReactNode>(locale, message, parts).map((piece, index) => <Fragment key={index}>{piece}</Fragment>);
}
