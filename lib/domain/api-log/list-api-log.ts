import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { apiKeys, apiLog } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { decodeKeyset, olderThan, toKeysetPage, type KeysetPage } from "@/lib/base/cursor";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { keyOfRow, rowColumns, shapeRow, type ApiLogRow } from "./internal/rows";
import { apiLogDays } from "./retention";

export const statusClasses = ["2xx", "3xx", "4xx", "5xx"] as const;
export type StatusClass = (typeof statusClasses)[number];

export const listApiLogInput = z.object({
  status: z.enum(statusClasses).optional(),
  keyId: z.string().min(1).max(100).optional(),
  /** The start of the path as logged (`/api/v1/listings`): `%` and `_` match themselves. */
  path: z.string().min(1).max(2048).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.number().int().min(1).max(100).default(50),
});

/** LIKE's own characters taken literally (PostgreSQL's default escape is the backslash). */
export const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const classBounds = (status: StatusClass): SQL => {
  const from = Number(status[0]) * 100;
  return and(gte(apiLog.status, from), lt(apiLog.status, from + 100))!;
};

/**
 * The signed-in account's API requests, newest first, a page at a time (`nextCursor` continues),
 * filtered by status class, key and path prefix. A row is the account's when its request carried
 * one of the account's keys (api_log.account_id); requests refused before a key was known belong to no account.
 */
export async function listApiLog({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof listApiLogInput>;
}): Promise<KeysetPage<ApiLogRow>> {
  const data = parseOrThrow(listApiLogInput, input);
  const after = decodeKeyset(data.cursor, z.number().int().positive());
  const filters: SQL[] = [eq(apiLog.accountId, ctx.actor.accountId)];
  if (data.status) filters.push(classBounds(data.status));
  if (data.keyId !== undefined) filters.push(eq(apiLog.keyId, data.keyId));
  if (data.path !== undefined) filters.push(sql`${apiLog.path} like ${likePrefix(data.path)}`);
  if (after) filters.push(olderThan(apiLog.createdAt, apiLog.id, after));
  const rows: Awaited<ReturnType<typeof readWindow>> = [];
  for (const [from, to] of readWindows(ctx.now)) {
    if (after && Date.parse(after.at) < from.getTime()) continue;
    rows.push(...(await readWindow(ctx, filters, from, to, data.limit + 1 - rows.length)));
    if (rows.length > data.limit) break;
  }
  return toKeysetPage(rows, data.limit, (row) => row.id, shapeRow);
}

const day = 86_400_000;

/**
 * The spans of time a page is read in, newest first: this UTC week and the next, the four weeks
 * before, then the rest of the `apiLogDays` rows are kept (older rows, not yet dropped with their week,
 * are not shown). `api_log` is partitioned by week (migration 0017) and a read bounded on both sides
 * by weeks that have partitions opens only those, newest first (the DEFAULT partition left out at
 * planning), where an unbounded read opened and merged all 53; most pages are full after the first.
 */
export function readWindows(now: Date): [Date, Date][] {
  const midnight = Math.floor(now.getTime() / day) * day;
  const monday = midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * day;
  const edges = [monday + 14 * day, monday, monday - 28 * day, now.getTime() - apiLogDays * day];
  return edges.slice(1).map((from, index) => [new Date(from), new Date(edges[index])]);
}

const readWindow = (ctx: ServiceContext<AccountActor>, filters: SQL[], from: Date, to: Date, limit: number) =>
  ctx.db
    .select(rowColumns)
    .from(apiLog)
    .leftJoin(apiKeys, keyOfRow)
    .where(and(...filters, gte(apiLog.createdAt, from), lt(apiLog.createdAt, to)))
    .orderBy(desc(apiLog.createdAt), desc(apiLog.id))
    .limit(limit);
