import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { apiKeys, apiLog, apiLogBodies } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import { loggable, loggableQuery, storableText } from "@/lib/base/redact";
import { keyOfRow, rowColumns, shapeRow, type ApiLogRow } from "./internal/rows";
import { apiLogBodyDays } from "./retention";

export interface ApiLogEntryDetail extends ApiLogRow {
  query: string | null;
  ip: string | null;
  requestBody: unknown;
  responseBody: unknown;
  /** The row is older than the bodies' retention: they are null whether or not the job has run yet. */
  bodiesExpired: boolean;
}

/** A row's id as `listApiLog` gives it: digits of a positive integer PostgreSQL's bigint and JavaScript both hold. */
const entryId = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/)
  .transform(Number)
  .refine((id) => Number.isSafeInteger(id));

/**
 * One request of the signed-in account's API log with its query, client address and bodies.
 * Another account's row and an id that names no row answer alike: not found.
 */
export async function getApiLogEntry({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { id: string };
}): Promise<ApiLogEntryDetail> {
  const id = entryId.safeParse(input.id);
  if (!id.success) throw notFound();
  const [row] = await ctx.db
    .select({
      ...rowColumns,
      query: apiLog.query,
      ip: apiLog.ip,
      requestBody: apiLogBodies.requestBody,
      responseBody: apiLogBodies.responseBody,
    })
    .from(apiLog)
    .leftJoin(apiKeys, keyOfRow)
    .leftJoin(apiLogBodies, and(eq(apiLogBodies.id, apiLog.id), eq(apiLogBodies.createdAt, apiLog.createdAt)))
    .where(and(eq(apiLog.id, id.data), eq(apiLog.accountId, ctx.actor.accountId)));
  if (!row) throw notFound();
  // The retention job drops a day's bodies once the whole day is past the cutoff: until then they are hidden here.
  const bodiesExpired = row.createdAt.getTime() < ctx.now.getTime() - apiLogBodyDays * 86_400_000;
  return {
    ...shapeRow(row),
    query: row.query === null ? null : loggableQuery(row.query),
    ip: row.ip === null ? null : storableText(row.ip),
    requestBody: bodiesExpired ? null : loggable(row.requestBody),
    responseBody: bodiesExpired ? null : loggable(row.responseBody),
    bodiesExpired,
  };
}
