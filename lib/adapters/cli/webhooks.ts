import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { createWebhookFor } from "@/lib/domain/webhooks/create-webhook";
import { subscribableEventTypes } from "@/lib/domain/webhooks/fields";
import { sendTestDelivery } from "@/lib/domain/webhooks/send-test-delivery";
import { ValidationError } from "@/lib/base/errors";
import { commaList, defineCommand } from "./command";

export const webhookCommands = [
  defineCommand({
    name: "webhook:create",
    summary: `Creates a webhook of the account with this e-mail: a public https:// address and the event types it receives, from ${subscribableEventTypes.join(", ")}. Prints its id and secret (shown once).`,
    args: z.object({
      email: z.email().transform((email) => email.toLowerCase()),
      url: z.string(),
      events: commaList(z.enum(subscribableEventTypes)),
    }),
    run: async (ctx, args) => {
      const [account] = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, args.email));
      if (!account) {
        throw new ValidationError([{ pointer: "/email", code: "invalid_value", params: { reason: "unknown_account_email" } }]);
      }
      const webhook = await createWebhookFor({ ctx, input: { account_id: account.id, url: args.url, events: args.events } });
      return { id: webhook.id, secret: webhook.secret };
    },
  }),
  defineCommand({
    name: "webhook:test",
    summary:
      "Sends a signed webhook.test event (data.message, --message to choose it) to the webhook with this id, once, not retried. Prints the receiver's answer: ok, status, duration_ms and error.",
    args: z.object({ id: z.string().min(1), message: z.string().min(1).max(500).optional() }),
    run: async (ctx, args) => {
      const result = await sendTestDelivery({ ctx, input: { id: args.id, message: args.message } });
      return { ...result };
    },
  }),
];
