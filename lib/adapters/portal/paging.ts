import { encodeSequenceCursor, isCursorRefusal, isCursorText, type SequencePage } from "@/lib/base/cursor";
import { firstValue, type SearchParams } from "./search-params";

/**
 * Paging on the portal's pages, over the cursors of lib/base/cursor.ts: the cursor the address
 * carries, the page at it (the first page when the service refuses it), and the links. Two kinds of
 * list: forward only (the keyset lists and the moderation queue: first page, next page) and both ways
 * (the sequence lists, the catalog and My listings: first, previous and next page).
 */

/** A page's address with the cursor of a page of its list; none: the first page. */
export type PageHref = (cursor?: string) => string;

export interface PagingLinks {
  first?: string;
  previous?: string;
  next?: string;
}

/**
 * `?cursor=`: its first value, trimmed; empty means none. Text that cannot be a cursor (a hand-edited
 * or truncated link) is left out and flagged `malformed`, so it never reaches a service.
 */
export function givenCursor(params: Readonly<SearchParams>): { cursor?: string; malformed: boolean } {
  const value = (firstValue(params.cursor) ?? "").trim();
  if (!value) return { malformed: false };
  return isCursorText(value) ? { cursor: value, malformed: false } : { malformed: true };
}

/**
 * `load(cursor)`; when the service refuses the cursor as one it never wrote (an old or edited link),
 * `load(undefined)`, the first page, with `refused`. `cursor` is the one the page was read at.
 */
export async function pageAt<P>(
  cursor: string | undefined,
  load: (cursor: string | undefined) => Promise<P>,
): Promise<{ page: P; cursor?: string; refused: boolean }> {
  if (cursor === undefined) return { page: await load(undefined), refused: false };
  try {
    return { page: await load(cursor), cursor, refused: false };
  } catch (error) {
    if (!isCursorRefusal(error)) throw error;
    return { page: await load(undefined), refused: true };
  }
}

/**
 * A page's address: the query's values in the order given (empty ones left out), then the cursor; the
 * bare path when there are none. `/` needs no escaping in a query (RFC 3986 §3.4), so it stays readable.
 */
export function pageHref(path: string, query: Readonly<Record<string, string | undefined>>, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  if (cursor) params.set("cursor", cursor);
  const search = params.toString().replaceAll("%2F", "/");
  return search ? `${path}?${search}` : path;
}

/**
 * A page of a list read forward only: back to the first page once a cursor led here, on to the next
 * page when there is one. No items on a page a cursor led to is `pastLast` (those after it were
 * removed since, or the cursor names a place past the end), not an empty list.
 */
export function forwardPaging(
  href: PageHref,
  page: { cursor?: string; next?: string | null; items: readonly unknown[] },
): PagingLinks & { pastLast: boolean } {
  return {
    first: page.cursor ? href() : undefined,
    next: page.next ? href(page.next) : undefined,
    pastLast: page.cursor !== undefined && page.items.length === 0,
  };
}

/** A page of a sequence list: the first and the previous page when there is a previous one, the next when there is one. */
export function twoWayPaging(href: PageHref, page: SequencePage<unknown> | undefined): PagingLinks {
  return {
    first: page?.prev ? href() : undefined,
    previous: page?.prev ? href(encodeSequenceCursor(page.prev)) : undefined,
    next: page?.next ? href(encodeSequenceCursor(page.next)) : undefined,
  };
}
