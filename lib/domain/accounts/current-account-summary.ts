import { eq } from "drizzle-orm";
import { accounts, agencies, agencyMembers } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { notFound } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";

export interface AccountSummary {
  name: string;
  email: string;
  language: Locale;
  confirmed: boolean;
  agency: { id: string; name: string; role: "owner" | "admin" | "agent" } | null;
}

/** What the portal shell shows of the signed-in account, read fresh from the database. */
export async function currentAccountSummary({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<AccountSummary> {
  const [row] = await ctx.db
    .select({
      name: accounts.name,
      email: accounts.email,
      language: accounts.language,
      confirmed: accounts.confirmed,
      agencyId: agencies.id,
      agencyName: agencies.name,
      role: agencyMembers.role,
    })
    .from(accounts)
    .leftJoin(agencyMembers, eq(agencyMembers.accountId, accounts.id))
    .leftJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
    .where(eq(accounts.id, ctx.actor.accountId));
  if (!row) throw notFound();
  return {
    name: row.name,
    email: row.email,
    language: row.language,
    confirmed: row.confirmed,
    agency: row.agencyId && row.agencyName && row.role ? { id: row.agencyId, name: row.agencyName, role: row.role } : null,
  };
}
