import { z } from "zod";
import { ValidationError } from "@/lib/base/errors";

/**
 * Opaque cursors over the "last modified" order (`mod_seq`, newest first). A cursor says where a
 * page starts and in which direction it was reached; `last` is the oldest page.
 */
export type Cursor = { after: number } | { before: number } | { last: true };

const cursorShape = z.union([
  z.object({ a: z.number().int().nonnegative() }).transform((c) => ({ after: c.a })),
  z.object({ b: z.number().int().nonnegative() }).transform((c) => ({ before: c.b })),
  z.object({ l: z.literal(1) }).transform(() => ({ last: true as const })),
]);

export function encodeCursor(cursor: Cursor): string {
  const raw = "after" in cursor ? { a: cursor.after } : "before" in cursor ? { b: cursor.before } : { l: 1 };
  return Buffer.from(JSON.stringify(raw)).toString("base64url");
}

export function decodeCursor(value: string | undefined): Cursor | undefined {
  if (value === undefined) return undefined;
  try {
    return cursorShape.parse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
  } catch {
    throw new ValidationError([{ pointer: "/cursor", in: "query", code: "invalid", params: { reason: "unknown_cursor" } }]);
  }
}

export interface Page<T> {
  items: T[];
  next?: Cursor;
  prev?: Cursor;
}

/**
 * Turns rows fetched one past the page size into a page. Rows of `after`/first pages come newest
 * first; rows of `before`/`last` pages were fetched oldest first and are turned around here.
 */
export function toPage<T extends { modSeq: number }>(rows: T[], perPage: number, cursor: Cursor | undefined): Page<T> {
  const more = rows.length > perPage;
  const slice = rows.slice(0, perPage);
  const backwards = cursor !== undefined && !("after" in cursor);
  const items = backwards ? slice.reverse() : slice;
  if (!items.length) return { items };
  const newest = items[0].modSeq;
  const oldest = items[items.length - 1].modSeq;
  if (backwards) {
    return { items, prev: more ? { before: newest } : undefined, next: "last" in cursor! ? undefined : { after: oldest } };
  }
  return { items, next: more ? { after: oldest } : undefined, prev: cursor ? { before: newest } : undefined };
}
