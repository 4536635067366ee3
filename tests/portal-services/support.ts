import { expect } from "vitest";
import { database } from "@/db";
import { apiLog, apiLogBodies } from "@/db/schema";
import { createAccount, type CreateAccountInput } from "@/lib/domain/accounts/create-account";
import { accountContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { fixturePasswordHash, operatorCtx } from "../support/fixtures";

/** A fresh account (each test makes its own), by default confirmed and without an agency. */
export async function freshAccount(input: Partial<CreateAccountInput> = {}) {
  return createAccount({
    ctx: await operatorCtx(),
    input: { email: `${newId("account")}@example.test`, passwordHash: fixturePasswordHash, ...input },
  });
}

/** The portal's context of a signed-in account, at `now` when a test moves time. */
export async function signedIn(account: Awaited<ReturnType<typeof freshAccount>>, now?: Date) {
  const agency = account.agency ? { id: account.agency.id, role: account.agency.role } : null;
  return accountContext(await database(), { accountId: account.id, agency }, now ? { now } : {});
}

/** The code of the AppError a promise rejects with. */
export async function appErrorCode(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

type LogRow = typeof apiLog.$inferInsert & Pick<typeof apiLogBodies.$inferInsert, "requestBody" | "responseBody">;

/** API log rows as the writer stores them (bodies, when given, in `api_log_bodies`); returns their ids. */
export async function logRows(rows: Array<Partial<LogRow> & { accountId: string | null; createdAt: Date }>): Promise<string[]> {
  const { connection: db } = await database();
  const inserted = await db
    .insert(apiLog)
    .values(
      rows.map((row) => ({
        requestId: newId("request"),
        method: "GET",
        path: "/api/v1/ping",
        status: 200,
        durationMs: 3,
        ...row,
        // Not columns of api_log: the bodies are rows of their own, below.
        requestBody: undefined,
        responseBody: undefined,
      })),
    )
    .returning({ id: apiLog.id, createdAt: apiLog.createdAt });
  const bodies = inserted.flatMap(({ id, createdAt }, index) => {
    const { requestBody = null, responseBody = null } = rows[index];
    return requestBody === null && responseBody === null ? [] : [{ id, createdAt, requestBody, responseBody }];
  });
  if (bodies.length) await db.insert(apiLogBodies).values(bodies);
  return inserted.map((row) => String(row.id));
}
