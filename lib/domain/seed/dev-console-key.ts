import { and, eq, isNull } from "drizzle-orm";
import { accounts, apiKeys } from "@/db/schema";
import type { OperatorActor, ServiceContext, SystemActor } from "@/lib/base/context";
import { createKey, type CreatedKey } from "@/lib/domain/keys/create-key";
import { permissions } from "@/lib/domain/keys/format";
import { revokeAnyKey } from "@/lib/domain/keys/revoke-key";
import { demoEmail } from "./accounts";

export const devConsoleKeyName = "dev console";

/**
 * A fresh key of the demo account with every permission, printed by each `npm run dev` start. Only
 * the hash of a key is stored, so the previous one cannot be shown again: it is revoked instead,
 * which also keeps the account under its key limit however often the server restarts.
 */
export async function issueDevConsoleKey({ ctx }: { ctx: ServiceContext<OperatorActor | SystemActor> }): Promise<CreatedKey | undefined> {
  const [demo] = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, demoEmail));
  if (!demo) return undefined;
  const previous = await ctx.db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, demo.id), eq(apiKeys.name, devConsoleKeyName), isNull(apiKeys.revokedAt)));
  for (const key of previous) await revokeAnyKey({ ctx, input: { id: key.id } });
  return createKey({ ctx, input: { accountId: demo.id, name: devConsoleKeyName, permissions: [...permissions], days: 30 } });
}
