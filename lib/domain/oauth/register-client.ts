import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts, oauthClients } from "@/db/schema";
import { recordActivity } from "@/lib/domain/accounts/activity";
import { hashSecret } from "@/lib/base/secret-hash";
import {
  withTransaction,
  type AccountActor,
  type OperatorActor,
  type ServiceContext,
  type SystemActor,
  type TransactionContext,
} from "@/lib/base/context";
import { AppError, notFound } from "@/lib/base/errors";
import { newId } from "@/lib/base/ids";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { redirectUris } from "./redirect-uris";
import { newClientSecret } from "./secrets";

export const clientFieldsInput = z.object({
  name: z.string().trim().min(1).max(100),
  redirect_uris: redirectUris,
});

export const registerClientForInput = clientFieldsInput.extend({ account_id: z.string().min(1) });

export interface RegisteredClient {
  client_id: string;
  /** Shown once: only its SHA-256 is stored. */
  client_secret: string;
  name: string;
  redirect_uris: string[];
}

/** The portal's form: the signed-in account registers an integrator app. */
export async function registerClient({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof clientFieldsInput>;
}): Promise<RegisteredClient> {
  const fields = parseOrThrow(clientFieldsInput, input);
  return withTransaction(ctx, (tx) => insertClient(tx, { accountId: ctx.actor.accountId, ...fields }));
}

/** The operator's `client:create`: an app of any account. */
export async function registerClientFor({
  ctx,
  input,
}: {
  ctx: ServiceContext<OperatorActor | SystemActor>;
  input: z.input<typeof registerClientForInput>;
}): Promise<RegisteredClient> {
  const { account_id: accountId, ...fields } = parseOrThrow(registerClientForInput, input);
  return withTransaction(ctx, (tx) => insertClient(tx, { accountId, ...fields }));
}

/** Only an active account with a confirmed e-mail address registers apps, as only such an account gets keys. */
async function insertClient(
  ctx: TransactionContext,
  input: z.output<typeof clientFieldsInput> & { accountId: string },
): Promise<RegisteredClient> {
  const [account] = await ctx.db.select().from(accounts).where(eq(accounts.id, input.accountId));
  if (!account || !account.active) throw notFound();
  if (!account.confirmed) throw new AppError("forbidden");
  const clientId = newId("client");
  const secret = newClientSecret();
  await ctx.db.insert(oauthClients).values({
    id: clientId,
    accountId: account.id,
    name: input.name,
    redirectUris: input.redirect_uris,
    secretHash: hashSecret(secret),
  });
  await recordActivity(ctx.db, {
    accountId: account.id,
    actor: ctx.actor,
    action: "app.registered",
    subjectId: clientId,
    details: input.name,
  });
  return { client_id: clientId, client_secret: secret, name: input.name, redirect_uris: input.redirect_uris };
}
