import { desc, eq } from "drizzle-orm";
import { accounts, sandboxMail } from "@/db/schema";
import type { Handle } from "@/db";
import { mailDelivery } from "@/lib/base/config";
import type { AccountActor, OperatorActor, ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";

export interface SandboxMessage {
  id: number;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: Date;
}

/**
 * The sandbox mailbox exists only while it is where mail goes (APP_ENV=sandbox without SMTP_URL);
 * otherwise it is not found, whoever asks.
 */
function mailboxInUse(): void {
  if (mailDelivery() !== "sandbox-mailbox") throw new AppError("not_found");
}

const mailTo = (db: Handle, recipient: string, limit: number): Promise<SandboxMessage[]> =>
  db
    .select()
    .from(sandboxMail)
    .where(eq(sandboxMail.recipient, recipient))
    .orderBy(desc(sandboxMail.createdAt), desc(sandboxMail.id))
    .limit(limit);

/**
 * The signed-in account's own mail in the sandbox mailbox, newest first: the mailbox holds password
 * reset links, so nobody reads another account's. Mail to an address without an account is never
 * stored (`sendMail`), so nobody reads that either.
 */
export async function listOwnSandboxMail({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: { limit: number };
}): Promise<SandboxMessage[]> {
  mailboxInUse();
  const [account] = await ctx.db.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, ctx.actor.accountId));
  if (!account) throw new AppError("not_found");
  return mailTo(ctx.db, account.email, input.limit);
}

/**
 * One address's mail in the sandbox mailbox, newest first, for the operator (`mail:list`): the
 * confirmation link of an account that cannot sign in before it is confirmed, on a developer's machine.
 */
export async function listSandboxMailTo({
  ctx,
  input,
}: {
  ctx: ServiceContext<OperatorActor>;
  input: { recipient: string; limit: number };
}): Promise<SandboxMessage[]> {
  mailboxInUse();
  return mailTo(ctx.db, input.recipient, input.limit);
}
