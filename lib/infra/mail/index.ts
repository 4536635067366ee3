import { createTransport, type Transporter } from "nodemailer";
import { database } from "@/db";
import { eq } from "drizzle-orm";
import { accounts, sandboxMail } from "@/db/schema";
import { config, mailDelivery } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

let transport: { url: string; transporter: Transporter } | undefined;

function smtp(url: string): Transporter {
  if (transport?.url !== url) transport = { url, transporter: createTransport(url) };
  return transport.transporter;
}

/**
 * Sends one message: through SMTP when `SMTP_URL` is set, otherwise into the sandbox mailbox
 * (docs/accounts.md, Mail), where the account with that address reads it. In production without `SMTP_URL`
 * it throws: a confirmation that silently goes nowhere is worse than a refused sign-up, and the
 * server's start-up already said mail is not configured.
 *
 * Call it after the transaction that decided to send has committed, never inside one: the mailbox
 * writes on the process-wide connection, which on PGlite waits for an open transaction to end.
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const c = config();
  switch (mailDelivery()) {
    case "smtp":
      await smtp(c.SMTP_URL!).sendMail({ from: c.MAIL_FROM, ...message });
      return;
    case "sandbox-mailbox": {
      const { connection } = await database();
      // The mailbox shows each account its own mail; mail to an address no account has would be
      // nobody's, so it is not kept, and only the log below has it.
      const [owner] = await connection.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, message.to));
      if (owner) {
        await connection.insert(sandboxMail).values({
          recipient: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html ?? null,
        });
      }
      // The body is logged because its links (confirmation, password reset) are what a developer
      // needs. Acceptable only for the embedded mailbox, whose messages are test data on one's own
      // machine; a real mail body holds one-time secrets and is never logged.
      logger.info(owner ? "mail stored in the sandbox mailbox (/sandbox/mailbox)" : "mail to an address without an account: logged only", {
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
      return;
    }
    case "none":
      throw new Error("Mail is not configured: set SMTP_URL (APP_ENV=production has no sandbox mailbox)");
  }
}
