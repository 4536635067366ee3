import { eq } from "drizzle-orm";
import { accounts, agencies, agencyMembers } from "@/db/schema";
import type { AgencyMembership, PublicActor, ServiceContext } from "@/lib/base/context";
import type { Locale } from "@/lib/base/i18n";

/** The signed-in account as every portal page shows it (shell, scope of its services). */
export interface SessionAccount {
  id: string;
  email: string;
  name: string;
  language: Locale;
  isModerator: boolean;
  agency: (AgencyMembership & { name: string }) | null;
}

/**
 * Re-reads a session's account on every portal request: a session lives only while its account is
 * active and its session generation is the one it was signed in with (a password change or reset
 * moves it on, ending every other session). Null ends the session.
 */
export async function sessionAccount({
  ctx,
  input,
}: {
  ctx: ServiceContext<PublicActor>;
  input: { accountId: string; sessionGeneration: number };
}): Promise<SessionAccount | null> {
  const [row] = await ctx.db
    .select({ account: accounts, agencyId: agencyMembers.agencyId, role: agencyMembers.role, agencyName: agencies.name })
    .from(accounts)
    .leftJoin(agencyMembers, eq(agencyMembers.accountId, accounts.id))
    .leftJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
    .where(eq(accounts.id, input.accountId));
  if (!row || !row.account.active || !row.account.confirmed || row.account.sessionGeneration !== input.sessionGeneration) return null;
  const { account } = row;
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    language: account.language as Locale,
    isModerator: account.isModerator,
    agency: row.agencyId && row.role && row.agencyName ? { id: row.agencyId, role: row.role, name: row.agencyName } : null,
  };
}
