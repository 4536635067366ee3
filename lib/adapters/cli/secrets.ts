import { z } from "zod";
import { reencryptWebhookSecrets } from "@/lib/domain/webhooks/reencrypt-webhook-secrets";
import { defineCommand } from "./command";

export const secretCommands = [
  defineCommand({
    name: "secrets:reencrypt",
    summary:
      "Seals every stored webhook secret under the newest key of ENCRYPTION_KEYS (the keys of the process holding the database), in batches (--batch-size, default 500); run it again safely. Prints reencrypted, already_current and unreadable (counts by the key id they need): remove an old key only once none needs it.",
    args: z.object({ "batch-size": z.coerce.number().int().min(1).max(10_000).default(500) }),
    run: async (ctx, args) => ({ ...(await reencryptWebhookSecrets({ ctx, input: { batchSize: args["batch-size"] } })) }),
  }),
];
