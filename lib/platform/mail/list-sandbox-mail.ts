import { desc, eq } from "drizzle-orm";
import { sandboxMail } from "@/db/schema";
import { mailDelivery } from "@/lib/platform/config";
import type { ServiceContext } from "@/lib/platform/context";
import { AppError } from "@/lib/platform/errors";

export interface SandboxMessage {
  id: number;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: Date;
}

/**
 * The sandbox mailbox, newest first, optionally one recipient's. It holds every account's mail, so it
 * exists only while the mailbox is where mail goes (APP_ENV=sandbox without SMTP_URL); otherwise it is
 * not found, whoever asks. A sandbox open to others sets SMTP_URL, which closes it.
 */
export async function listSandboxMail({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { recipient?: string; limit: number };
}): Promise<SandboxMessage[]> {
  if (mailDelivery() !== "sandbox-mailbox") throw new AppError("not_found");
  return ctx.db
    .select()
    .from(sandboxMail)
    .where(input.recipient ? eq(sandboxMail.recipient, input.recipient) : undefined)
    .orderBy(desc(sandboxMail.createdAt), desc(sandboxMail.id))
    .limit(input.limit);
}
