import { and, asc, eq, sql } from "drizzle-orm";
import { accounts, agencies, agencyMembers } from "@/db/schema";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";

export type AgencyRole = "owner" | "admin" | "agent";

export interface AgencyMember {
  accountId: string;
  name: string;
  email: string;
  role: AgencyRole;
  confirmed: boolean;
  /** When the account joined the agency. */
  joinedAt: Date;
}

export interface AgencyMembers {
  agency: { id: string; name: string };
  members: AgencyMember[];
}

/**
 * The signed-in account's agency and its members, owners first, then admins, then agents, each
 * group by joining date. Only an owner or an admin sees them (they manage the colleagues' listings);
 * an agent and an account without an agency are refused.
 */
export async function listAgencyMembers({ ctx }: { ctx: ServiceContext<AccountActor> }): Promise<AgencyMembers> {
  const membership = ctx.actor.agency;
  if (!membership || membership.role === "agent") throw new AppError("forbidden");
  const [agency] = await ctx.db.select({ id: agencies.id, name: agencies.name }).from(agencies).where(eq(agencies.id, membership.id));
  // The membership comes from the session; one ended since (the agency gone, the account moved) is refused too.
  const [self] = await ctx.db
    .select({ role: agencyMembers.role })
    .from(agencyMembers)
    .where(and(eq(agencyMembers.agencyId, membership.id), eq(agencyMembers.accountId, ctx.actor.accountId)));
  if (!agency || !self || self.role === "agent") throw new AppError("forbidden");
  const members = await ctx.db
    .select({
      accountId: accounts.id,
      name: accounts.name,
      email: accounts.email,
      role: agencyMembers.role,
      confirmed: accounts.confirmed,
      joinedAt: agencyMembers.createdAt,
    })
    .from(agencyMembers)
    .innerJoin(accounts, eq(accounts.id, agencyMembers.accountId))
    .where(eq(agencyMembers.agencyId, agency.id))
    .orderBy(
      sql`case ${agencyMembers.role} when 'owner' then 0 when 'admin' then 1 else 2 end`,
      asc(agencyMembers.createdAt),
      asc(accounts.id),
    );
  return { agency, members };
}
