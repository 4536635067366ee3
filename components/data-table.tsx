import type { ReactNode } from "react";
import "./data-table.css";

/** How the table's scroll region is named: by a text of its own, or by the id of a heading or caption on the page. */
type Naming = { label: string; labelledBy?: never } | { labelledBy: string; label?: never };

/**
 * A list page's table: the empty state when there are no rows; otherwise the table in a region that
 * scrolls sideways on a narrow screen, named and reachable by the keyboard (a region that scrolls
 * must take the focus, or a keyboard user cannot scroll it), with an optional caption.
 * `variant` chooses how cells wrap: `words` keeps words whole, `log` keeps short cells on one line.
 */
export function DataTable({
  rows,
  empty,
  caption,
  captionId,
  variant,
  children,
  ...naming
}: Naming & {
  /** How many rows the table holds: none shows `empty` instead. */
  rows: number;
  empty: ReactNode;
  caption?: ReactNode;
  /** The caption's id, when the region or another element is named by it. */
  captionId?: string;
  variant?: "words" | "log";
  /** The table's `thead` and `tbody`. */
  children: ReactNode;
}) {
  if (rows === 0) return <div className="empty">{empty}</div>;
  return (
    <div className="table-wrap" role="region" aria-label={naming.label} aria-labelledby={naming.labelledBy} tabIndex={0}>
      <table className={variant ? `data ${variant}-table` : "data"}>
        {caption ? <caption id={captionId}>{caption}</caption> : null}
        {children}
      </table>
    </div>
  );
}
