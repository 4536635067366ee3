import { eq } from "drizzle-orm";
import { postgresError, sqlState } from "@/db/errors";
import { accounts } from "@/db/schema";
import { ValidationError } from "@/lib/base/errors";
import type { OperatorActor, ServiceContext, SystemActor } from "@/lib/base/context";
import { demoEmail, sandboxPassword, seedAccounts, type SeededAccounts } from "./accounts";
import { seedIntegrations, type SeededIntegrations } from "./integrations";
import { seedListings, type SeededListings } from "./listings";
import type { SeedPhotoProcessing } from "./photos";

export { demoEmail, sandboxPassword } from "./accounts";
export type { SeededAccounts } from "./accounts";

export type SeedResult =
  | { seeded: false; reason: string }
  | {
      seeded: true;
      password: string;
      accounts: { role: string; id: string; email: string; agency?: string }[];
      integrations: SeededIntegrations;
      listings: SeededListings;
    };

/**
 * Fills the sandbox with test data: `npm run db:seed`, and `npm run dev` on an empty database.
 * Idempotent: it does nothing once the demo account exists, nor when another process (a second
 * instance of a fleet starting on the same empty database) has just created it first. Further sandbox content is one
 * function `seedX({ ctx, accounts })` called below after the accounts, its summary added to the result.
 */
export async function seedSandbox({
  ctx,
  photoProcessing = "now",
}: {
  ctx: ServiceContext<OperatorActor | SystemActor>;
  /** When the listings' drawn photos are processed (lib/domain/seed/photos.ts): at once unless told. */
  photoProcessing?: SeedPhotoProcessing;
}): Promise<SeedResult> {
  if (await accountExists(ctx, demoEmail)) return { seeded: false, reason: `${demoEmail} exists already` };
  let seeded: SeededAccounts;
  try {
    seeded = await seedAccounts(ctx);
  } catch (error) {
    // The demo account is the first one created: its e-mail taken meanwhile means another process is
    // seeding. Taken after this process's check, it is the unique index that says so; taken before
    // the account's own check, createAccount's refusal (`email_taken` at /email).
    if (emailTakenMeanwhile(error)) return { seeded: false, reason: `${demoEmail} was created meanwhile by another process` };
    throw error;
  }
  // Before the listings: the connection gives the demo account its first key, and only accounts with
  // a key record events, so the listings' publications, rejection, pause and sale reach the webhooks.
  const integrations = await seedIntegrations({ ctx, accounts: seeded });
  const listings = await seedListings({ ctx, accounts: seeded, photoProcessing });
  return {
    seeded: true,
    password: sandboxPassword,
    accounts: Object.entries(seeded).map(([role, account]) => ({
      role,
      id: account.id,
      email: account.email,
      ...(account.agency ? { agency: account.agency.name } : {}),
    })),
    integrations,
    listings,
  };
}

async function accountExists(ctx: ServiceContext, email: string): Promise<boolean> {
  const rows = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
  return rows.length > 0;
}

function emailTakenMeanwhile(error: unknown): boolean {
  const failure = postgresError(error);
  if (failure?.code === sqlState.uniqueViolation && failure.constraint === "accounts_email_unique") return true;
  return (
    error instanceof ValidationError &&
    error.errors.some((field) => field.pointer === "/email" && field.code === "invalid_value" && field.params.reason === "email_taken")
  );
}
