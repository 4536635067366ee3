import { and, lt, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { ValidationError } from "@/lib/base/errors";

/**
 * Opaque cursors for lists newest first by `(created_at, id)`: the position of the last row of a
 * page. The timestamp travels as PostgreSQL's own text in microseconds, since a JavaScript `Date`
 * keeps milliseconds only and rows written within one millisecond would be skipped or repeated.
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
  return Buffer.from(JSON.stringify({ t: position.at, i: position.id })).toString("base64url");
}

/** The position a cursor names, or a 422 at `/cursor` (`unknown_cursor`) for anything this module did not write. */
export function decodeKeyset<Id extends string | number>(value: string | undefined, id: z.ZodType<Id>): KeysetPosition<Id> | undefined {
  if (value === undefined) return undefined;
  const shape = z.object({ t: z.string().refine(realTimestamp), i: id });
  try {
    const parsed = shape.parse(JSON.parse(Buffer.from(value, "base64url").toString("utf8")));
    return { at: parsed.t, id: parsed.i as Id };
  } catch {
    throw new ValidationError([{ pointer: "/cursor", code: "invalid", params: { reason: "unknown_cursor" } }]);
  }
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
