import { z } from "zod";
import { listSandboxMailTo } from "@/lib/infra/mail/list-sandbox-mail";
import { defineCommand } from "./command";

export const mailCommands = [
  defineCommand({
    name: "mail:list",
    summary:
      "Lists the sandbox mailbox's mail to one address, newest first (at most 50): the confirmation link of an account that cannot sign in yet. Only while the mailbox is in use (sandbox without SMTP_URL).",
    args: z.object({ to: z.string().trim().min(1) }),
    run: async (ctx, args) => ({
      messages: (await listSandboxMailTo({ ctx, input: { recipient: args.to, limit: 50 } })).map((message) => ({
        id: message.id,
        to: message.recipient,
        subject: message.subject,
        text: message.text,
        created_at: message.createdAt.toISOString(),
      })),
    }),
  }),
];
