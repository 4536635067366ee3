import { asc, eq } from "drizzle-orm";
import { oauthClients } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";

export interface OwnClient {
  client_id: string;
  name: string;
  redirect_uris: string[];
  created_at: Date;
  secret_rotated_at: Date | null;
}

/** The signed-in account's integrator apps, oldest first; secrets are never readable again. */
export async function listOwnClients({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<OwnClient[]> {
  const rows = await ctx.db
    .select()
    .from(oauthClients)
    .where(eq(oauthClients.accountId, ctx.actor.accountId))
    .orderBy(asc(oauthClients.createdAt), asc(oauthClients.id));
  return rows.map((row) => ({
    client_id: row.id,
    name: row.name,
    redirect_uris: row.redirectUris,
    created_at: row.createdAt,
    secret_rotated_at: row.secretRotatedAt,
  }));
}
