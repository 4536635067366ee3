import { eq } from "drizzle-orm";
import { accounts } from "@/db/schema";
import type { ServiceContext, StaffActor } from "@/lib/base/context";
import { demoEmail, sandboxPassword, seedAccounts } from "./accounts";
import { seedListings, type SeededListings } from "./listings";

export { demoEmail, sandboxPassword } from "./accounts";
export type { SeededAccounts } from "./accounts";

export type SeedResult =
  | { seeded: false; reason: string }
  | {
      seeded: true;
      password: string;
      accounts: { role: string; id: string; email: string; agency?: string }[];
      listings: SeededListings;
    };

/**
 * Fills the sandbox with test data: `npm run db:seed`, and `npm run dev` on an empty database.
 * Idempotent: it does nothing once the demo account exists. Further sandbox content is one
 * function `seedX({ ctx, accounts })` called below after the accounts, its summary added to the result.
 */
export async function seedSandbox({ ctx }: { ctx: ServiceContext<StaffActor> }): Promise<SeedResult> {
  if (await accountExists(ctx, demoEmail)) return { seeded: false, reason: `${demoEmail} exists already` };
  const seeded = await seedAccounts(ctx);
  const listings = await seedListings({ ctx, accounts: seeded });
  return {
    seeded: true,
    password: sandboxPassword,
    accounts: Object.entries(seeded).map(([role, account]) => ({
      role,
      id: account.id,
      email: account.email,
      ...(account.agency ? { agency: account.agency.name } : {}),
    })),
    listings,
  };
}

async function accountExists(ctx: ServiceContext, email: string): Promise<boolean> {
  const rows = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
  return rows.length > 0;
}
