import { z } from "zod";
import { withTransaction, type AccountActor, type OperatorActor, type ServiceContext, type SystemActor } from "@/lib/base/context";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { publicWebhookUrl, webhookFieldsInput } from "./fields";
import { insertWebhook, type CreatedWebhook } from "./internal/insert-webhook";

export const createWebhookForInput = webhookFieldsInput.extend({ account_id: z.string().min(1) });

/** The portal's form: a webhook of the signed-in account; its secret is in the answer only. */
export async function createWebhook({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof webhookFieldsInput>;
}): Promise<CreatedWebhook> {
  const fields = parseOrThrow(webhookFieldsInput, input);
  const url = await publicWebhookUrl(fields.url);
  return withTransaction(ctx, (tx) => insertWebhook(tx, { ...fields, url, accountId: ctx.actor.accountId }));
}

/** The operator's `webhook:create`: a webhook of any account. */
export async function createWebhookFor({
  ctx,
  input,
}: {
  ctx: ServiceContext<OperatorActor | SystemActor>;
  input: z.input<typeof createWebhookForInput>;
}): Promise<CreatedWebhook> {
  const { account_id: accountId, ...fields } = parseOrThrow(createWebhookForInput, input);
  const url = await publicWebhookUrl(fields.url);
  return withTransaction(ctx, (tx) => insertWebhook(tx, { ...fields, url, accountId }));
}
