import { and, lt, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { ValidationError } from "@/lib/base/errors";

/**
 * Opaque cursors: a small JSON position in base64url text, so it travels in a query parameter as it
 * is. One codec, two orders built on it: keyset lists (newest first by `(created_at, id)`: the API
 * log, webhook deliveries, account activity) and sequence lists (by `mod_seq`, both ways: the
 * listings of the API and the portal, the moderation queue).
 */

/** Longer than any position this module writes; the services' inputs bound `cursor` the same. */
const maxCursorLength = 500;
const base64url = /^[A-Za-z0-9_-]+$/;

/** Text that could be a cursor (base64url, not too long): anything else never reaches a decoder. */
export const isCursorText = (value: string): boolean => value.length <= maxCursorLength && base64url.test(value);

/** The 422 of a cursor this module did not write: `unknown_cursor` at `/cursor`, in the query. */
const unknownCursor = () =>
  new ValidationError([{ pointer: "/cursor", in: "query", code: "invalid", params: { reason: "unknown_cursor" } }]);

/** The service refused the cursor (unknown, or out of its bounds): a 422 at `/cursor`. */
export const isCursorRefusal = (error: unknown): boolean =>
  error instanceof ValidationError && error.errors.some((issue) => issue.pointer === "/cursor");

export function encodeCursor(position: object): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

/** The position a cursor names in the caller's `shape`, or the `unknown_cursor` 422 for anything else. */
export function decodeCursor<T>(value: string | undefined, shape: z.ZodType<T>): T | undefined {
  if (value === undefined) return undefined;
  if (!isCursorText(value)) throw unknownCursor();
  try {
    return shape.parse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
  } catch {
    throw unknownCursor();
  }
}

// Keyset lists: newest first by `(created_at, id)`, forward only.

/**
 * The position of the last row of a page. The timestamp travels as PostgreSQL's own text in
 * microseconds, since a JavaScript `Date` keeps milliseconds only and rows written within one
 * millisecond would be skipped or repeated. Written `{ t, i }`.
 */
export interface KeysetPosition<Id extends string | number> {
  at: string;
  id: Id;
}

export interface KeysetPage<T> {
  items: T[];
  /** Where the next (older) page starts; null on the last page. */
  nextCursor: string | null;
}

/** `YYYY-MM-DDTHH:MI:SS.USZ`, what `cursorTimestamp` selects. */
const timestampText = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const realTimestamp = (value: string) => {
  if (!timestampText.test(value)) return false;
  const milliseconds = `${value.slice(0, 23)}Z`;
  const parsed = new Date(milliseconds);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString() === milliseconds;
};

/** The column's exact value as the cursor carries it. */
export const cursorTimestamp = (column: PgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodeKeyset<Id extends string | number>(position: KeysetPosition<Id>): string {
  return encodeCursor({ t: position.at, i: position.id });
}

/** The position a keyset cursor names, its id in `id`'s shape; the `unknown_cursor` 422 for anything else. */
export function decodeKeyset<Id extends string | number>(value: string | undefined, id: z.ZodType<Id>): KeysetPosition<Id> | undefined {
  const position = decodeCursor(value, z.object({ t: z.string().refine(realTimestamp), i: id }));
  return position && { at: position.t, id: position.i };
}

/** Rows strictly after the position in the newest-first order; the first condition alone can use a `(…, created_at)` index. */
export function olderThan<Id extends string | number>(createdAt: PgColumn, id: PgColumn, position: KeysetPosition<Id>): SQL {
  const at = sql`${position.at}::timestamptz`;
  return and(sql`${createdAt} <= ${at}`, or(sql`${createdAt} < ${at}`, lt(id, position.id)))!;
}

/** Rows fetched one past `limit` turned into a page; each row carries its cursor position. */
export function toKeysetPage<R extends { cursorAt: string }, Id extends string | number, T>(
  rows: R[],
  limit: number,
  position: (row: R) => Id,
  shape: (row: R) => T,
): KeysetPage<T> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map(shape),
    nextCursor: rows.length > limit && last ? encodeKeyset({ at: last.cursorAt, id: position(last) }) : null,
  };
}

// Sequence lists: by a unique sequence number (`mod_seq`), both ways.

/**
 * Where a page starts and in which direction it was reached: `after` and `before` a sequence number
 * in the list's order, or `last`, the last page. Written `{ a }`, `{ b }`, `{ l: 1 }`.
 */
export type SequenceCursor = { after: number } | { before: number } | { last: true };

const sequenceShape = z.union([
  z.object({ a: z.number().int().nonnegative() }).transform((c) => ({ after: c.a })),
  z.object({ b: z.number().int().nonnegative() }).transform((c) => ({ before: c.b })),
  z.object({ l: z.literal(1) }).transform(() => ({ last: true as const })),
]);

export function encodeSequenceCursor(cursor: SequenceCursor): string {
  return encodeCursor("after" in cursor ? { a: cursor.after } : "before" in cursor ? { b: cursor.before } : { l: 1 });
}

/** The place a sequence cursor names; the `unknown_cursor` 422 for anything else. */
export function decodeSequenceCursor(value: string | undefined): SequenceCursor | undefined {
  return decodeCursor(value, sequenceShape);
}

export interface SequencePage<T> {
  items: T[];
  next?: SequenceCursor;
  prev?: SequenceCursor;
}

/**
 * Turns rows fetched one past the page size into a page of a list newest (highest `seq`) first.
 * Rows of `after`/first pages come in the list's order; rows of `before`/`last` pages were fetched
 * the other way and are turned around here.
 */
export function toSequencePage<T>(
  rows: T[],
  perPage: number,
  cursor: SequenceCursor | undefined,
  seq: (row: T) => number,
): SequencePage<T> {
  const more = rows.length > perPage;
  const slice = rows.slice(0, perPage);
  const backwards = cursor !== undefined && !("after" in cursor);
  const items = backwards ? slice.reverse() : slice;
  if (!items.length) return { items };
  const newest = seq(items[0]);
  const oldest = seq(items[items.length - 1]);
  if (backwards) {
    return { items, prev: more ? { before: newest } : undefined, next: "last" in cursor! ? undefined : { after: oldest } };
  }
  return { items, next: more ? { after: oldest } : undefined, prev: cursor ? { before: newest } : undefined };
}
