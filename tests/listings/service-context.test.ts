import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { events, listings } from "@/db/schema";
import { changeListingState } from "@/lib/domain/listings/change-state";
import { editListing } from "@/lib/domain/listings/edit";
import { lockAnyListing, lockListing } from "@/lib/domain/listings/locking";
import { moderateListing } from "@/lib/domain/listings/moderate";
import { unconfirmStaleListings } from "@/lib/domain/listings/unconfirm";
import { createKey } from "@/lib/domain/keys/create-key";
import { revokeAnyKey, revokeKey } from "@/lib/domain/keys/revoke-key";
import { setRate } from "@/lib/domain/currency";
import {
  accountContext,
  inTransaction,
  withTransaction,
  type AccountActor,
  type ApiActor,
  type ModeratorActor,
  type OperatorActor,
  type PublicActor,
  type ServiceContext,
} from "@/lib/base/context";
import { accountWithKey } from "../support/fixtures";
import { activeListing } from "../support/listings";

/**
 * Checked by `tsc --noEmit`, never called: a context scoped to one account (what a keyed route
 * holds) cannot reach the forms that act on every account, and a staff context has no account to
 * scope listing writes to. Each `@ts-expect-error` fails the type check if the call compiles.
 */
export function scopeIsTyped(
  api: ServiceContext<ApiActor>,
  account: ServiceContext<AccountActor>,
  anonymous: ServiceContext<PublicActor>,
  moderator: ServiceContext<ModeratorActor>,
  operator: ServiceContext<OperatorActor>,
) {
  // @ts-expect-error a keyed context cannot lock any account's listing
  void withTransaction(api, (tx) => lockAnyListing(tx, "AB12CD34"));
  // @ts-expect-error nor can a portal account's
  void withTransaction(account, (tx) => lockAnyListing(tx, "AB12CD34"));
  // @ts-expect-error a keyed context cannot moderate (the sandbox simulator is simulateModeration)
  void moderateListing({ ctx: api, input: { code: "AB12CD34", decision: { decision: "approve" } } });
  // @ts-expect-error nor run the job that unconfirms every account's listings
  void unconfirmStaleListings({ ctx: api });
  // @ts-expect-error a keyed context cannot revoke any account's key
  void revokeAnyKey({ ctx: api, input: { id: "key_x" } });
  // @ts-expect-error nor can a moderator
  void revokeAnyKey({ ctx: moderator, input: { id: "key_x" } });
  // @ts-expect-error nor create keys for an account
  void createKey({ ctx: api, input: { accountId: "acct_x", name: "k", permissions: ["listings:read"], days: 30 } });
  // @ts-expect-error nor set reference rates
  void setRate({ ctx: account, input: { currency: "RON", eurPerUnit: 0.2 } });
  // @ts-expect-error a caller without a key cannot write listings
  void changeListingState({ ctx: anonymous, input: { code: "AB12CD34", action: "pause" } });
  // @ts-expect-error a staff context has no account whose listings it would change
  void changeListingState({ ctx: operator, input: { code: "AB12CD34", action: "pause" } });
  // @ts-expect-error the scoped lock needs a transaction
  void lockListing(api, "AB12CD34");

  // What each may do compiles.
  void withTransaction(api, (tx) => lockListing(tx, "AB12CD34"));
  void withTransaction(moderator, (tx) => lockAnyListing(tx, "AB12CD34"));
  void revokeKey({ ctx: account, input: { id: "key_x" } });
  void revokeAnyKey({ ctx: operator, input: { id: "key_x" } });
  void moderateListing({ ctx: moderator, input: { code: "AB12CD34", decision: { decision: "hide" } } });
}

async function ownerContext(accountId: string) {
  return accountContext(await database(), { accountId, agency: null });
}

const statusOf = async (code: string) => {
  const [row] = await (await database()).connection.select({ status: listings.status }).from(listings).where(eq(listings.code, code));
  return row.status;
};

describe("service context", () => {
  it("has the scope checks of scopeIsTyped (compiled, not run)", () => {
    expect(scopeIsTyped).toBeTypeOf("function");
  });

  it("runs a service called inside an outer transaction in that transaction: its write rolls back with it", async () => {
    const { key, account } = await accountWithKey();
    const listing = await activeListing(key);
    const ctx = await ownerContext(account.id);
    const eventsBefore = await ctx.db.select().from(events).where(eq(events.accountId, account.id)).orderBy(events.seq);

    const outcome = withTransaction(ctx, async (tx) => {
      expect(inTransaction(tx)).toBe(true);
      const paused = await changeListingState({ ctx: tx, input: { code: listing.code, action: "pause" } });
      expect(paused.status).toBe("paused");
      // The edit validates against the rates through the same transaction (on PGlite a query
      // outside it would wait for it forever) and sees the pause not yet committed.
      const edited = await editListing({ ctx: tx, input: { code: listing.code, patch: { rooms: 4 }, ifMatch: null, source: "api" } });
      expect(edited.listed.row.status).toBe("paused");
      const [seen] = await tx.db.select({ status: listings.status }).from(listings).where(eq(listings.code, listing.code));
      expect(seen.status).toBe("paused");
      throw new Error("the outer work fails after the service returned");
    });
    await expect(outcome).rejects.toThrow("the outer work fails");

    expect(await statusOf(listing.code)).toBe("active");
    expect(await ctx.db.select().from(events).where(eq(events.accountId, account.id)).orderBy(events.seq)).toEqual(eventsBefore);
  });

  it("commits the service's write with the outer transaction", async () => {
    const { key, account } = await accountWithKey();
    const listing = await activeListing(key);
    const ctx = await ownerContext(account.id);
    await withTransaction(ctx, (tx) => changeListingState({ ctx: tx, input: { code: listing.code, action: "pause" } }));
    expect(await statusOf(listing.code)).toBe("paused");
    const paused = await ctx.db
      .select()
      .from(events)
      .where(and(eq(events.accountId, account.id), eq(events.type, "listing.paused")));
    expect(paused).toHaveLength(1);
  });

  it("scopes listing writes to the acting account: another account's listing answers like a missing one", async () => {
    const owner = await accountWithKey();
    const other = await accountWithKey();
    const listing = await activeListing(owner.key);
    const ctx = await ownerContext(other.account.id);
    await expect(changeListingState({ ctx, input: { code: listing.code, action: "pause" } })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await statusOf(listing.code)).toBe("active");
  });

  it("revokes only the acting account's own keys", async () => {
    const owner = await accountWithKey();
    const other = await accountWithKey();
    const ctx = await ownerContext(other.account.id);
    await expect(revokeKey({ ctx, input: { id: owner.keyId } })).rejects.toMatchObject({ code: "not_found" });
    const revoked = await revokeKey({ ctx, input: { id: other.keyId } });
    expect(revoked.id).toBe(other.keyId);
    expect(revoked.revokedAt).toBeInstanceOf(Date);
  });
});
