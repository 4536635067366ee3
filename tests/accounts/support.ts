import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { database } from "@/db";
import { accounts, sandboxMail } from "@/db/schema";
import { confirmEmail } from "@/lib/domain/accounts/confirm-email";
import { signUp } from "@/lib/domain/accounts/sign-up";
import { publicContext } from "@/lib/base/context";
import { ValidationError } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";

export const password = "correct horse battery";

/** A public context, at `now` when a test moves time on. */
export async function publicCtx(now?: Date) {
  return publicContext(await database(), now ? { now } : {});
}

/** A fresh address: each test makes its own accounts. */
export const freshEmail = () => `${newId("account")}@example.test`;

/** The sandbox mailbox's messages to `to`, oldest first: what the services sent. */
export async function mailsTo(to: string) {
  const db = await database();
  return db.connection
    .select()
    .from(sandboxMail)
    .where(eq(sandboxMail.recipient, to))
    .orderBy(asc(sandboxMail.createdAt), asc(sandboxMail.id));
}

/** The token of the link to `path` in a mail's text. */
export function tokenIn(text: string, path: string): string {
  const link = text.match(new RegExp(`http://localhost:3000${path}\\?token=([A-Za-z0-9_-]+)`));
  expect(link, `a ${path} link in ${JSON.stringify(text)}`).not.toBeNull();
  return link![1];
}

export async function accountByEmail(email: string) {
  const db = await database();
  const [account] = await db.connection.select().from(accounts).where(eq(accounts.email, email));
  return account;
}

/** Signs up through the service and follows the mailed confirmation link: a confirmed account. */
export async function confirmedAccount(options: { language?: "ro" | "en" } = {}) {
  const email = freshEmail();
  await signUp({ ctx: await publicCtx(), input: { email, password, name: "Ana Pop", language: options.language ?? "en" } });
  const [mail] = await mailsTo(email);
  await confirmEmail({ ctx: await publicCtx(), input: { token: tokenIn(mail.text, "/confirm-email") } });
  const account = await accountByEmail(email);
  return { email, account };
}
/** The validation error a promise rejects with, as `{ pointer, code, reason }` items. */
export async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors.map((e) => ({
    pointer: e.pointer,
    code: e.code,
    reason: (e.params as { reason?: string })?.reason,
  }));
}
