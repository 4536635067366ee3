import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { database } from "@/db";
import { listings, sandboxMail } from "@/db/schema";
import { confirmListing } from "@/lib/domain/listings/confirm";
import { changeListingState } from "@/lib/domain/listings/change-state";
import { countAccountListings } from "@/lib/domain/listings/count-by-status";
import { remindConfirmationDue } from "@/lib/domain/listings/remind-confirmation";
import { unconfirmStaleListings } from "@/lib/domain/listings/unconfirm";
import { systemContext } from "@/lib/base/context";
import { executeCommand } from "@/lib/adapters/cli/execute";
import { newId } from "@/lib/base/ids";
import { appErrorCode, signedIn } from "../portal-services/support";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing } from "../support/listings";

const dayMs = 86_400_000;
const daysAfter = (start: Date, days: number) => new Date(start.getTime() + days * dayMs);

async function rowOf(code: string) {
  const { connection: db } = await database();
  const [row] = await db.select().from(listings).where(eq(listings.code, code));
  return row;
}

async function eventTypesOf(key: string) {
  const res = await call(eventsRoute, { path: "/events", key });
  return (res.json!.data as { type: string; data: { code: string; status: string } }[]).map((e) => `${e.type}:${e.data.status}`);
}

const mailTo = async (email: string) => {
  const { connection: db } = await database();
  return db.select().from(sandboxMail).where(eq(sandboxMail.recipient, email));
};

/**
 * Moves a listing's last confirmation. On PostgreSQL the test files share one database, and the
 * listing jobs act on every account's listings: tests that run them at a moment of their own keep
 * their listings in a band of time far from the others' (`band`), so no other file's run meets them.
 */
async function confirmedAtMoment(code: string, at: Date) {
  const { connection: db } = await database();
  await db.update(listings).set({ confirmedAt: at }).where(eq(listings.code, code));
  return at;
}

const band = () => new Date(Date.now() + (1000 + Math.floor(Math.random() * 50_000)) * dayMs);

/** An account with a key (so its events are kept) and an active listing confirmed at `confirmedAt` (now unless given). */
async function holderWithListing(options: Parameters<typeof accountWithKey>[0] = {}, confirmedAt?: Date) {
  const holder = await accountWithKey(options);
  const listing = await activeListing(holder.key);
  return {
    ...holder,
    listing,
    confirmedAt: confirmedAt ? await confirmedAtMoment(listing.code, confirmedAt) : (await rowOf(listing.code)).confirmedAt!,
  };
}

/** The hourly job's rule on the real clock, after the listing's last confirmation was moved 31 days back. */
async function unconfirmedListing(options: Parameters<typeof accountWithKey>[0] = {}) {
  const holder = await holderWithListing(options, daysAfter(new Date(), -31));
  await unconfirmStaleListings({ ctx: systemContext(await database()) });
  expect((await rowOf(holder.listing.code)).status).toBe("unconfirmed");
  return holder;
}

describe("confirmListing (Still available)", () => {
  it("makes an unconfirmed listing active again with listing.published, and starts a new 30 days", async () => {
    const { account, key, listing } = await unconfirmedListing();
    const now = new Date();

    const confirmed = await confirmListing({ ctx: await signedIn(account, now), input: { code: listing.code } });

    expect(confirmed.row.status).toBe("active");
    expect(await rowOf(listing.code)).toMatchObject({ status: "active", confirmedAt: now });
    expect(await eventTypesOf(key)).toEqual(["listing.published:active", "listing.published:active"]);
    await unconfirmStaleListings({ ctx: systemContext(await database()) });
    expect((await rowOf(listing.code)).status).toBe("active");
  });

  it("confirms an active listing early without a new version, a new place in the order or an event", async () => {
    const { account, key, listing, confirmedAt } = await holderWithListing();
    const before = await rowOf(listing.code);
    const early = daysAfter(confirmedAt, 28);
    expect((await countAccountListings({ ctx: await signedIn(account, daysAfter(confirmedAt, 26.9)) })).confirmationDue).toBe(0);
    expect((await countAccountListings({ ctx: await signedIn(account, early) })).confirmationDue).toBe(1);

    await confirmListing({ ctx: await signedIn(account, early), input: { code: listing.code } });

    expect((await countAccountListings({ ctx: await signedIn(account, early) })).confirmationDue).toBe(0);
    const after = await rowOf(listing.code);
    expect(after).toMatchObject({ status: "active", confirmedAt: early, version: before.version, modSeq: before.modSeq });
    expect(await eventTypesOf(key)).toEqual(["listing.published:active"]);
  });

  it("refuses a listing in another state with the reason, and answers another account's listing like a missing one", async () => {
    const { account, listing } = await holderWithListing();
    const ctx = await signedIn(account);
    await changeListingState({ ctx, input: { code: listing.code, action: "pause" } });
    const refusal = await confirmListing({ ctx, input: { code: listing.code } }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: "listing_action_refused", params: { reason: "cannot_confirm", status: "paused" } });

    const stranger = await accountWithKey();
    expect(await appErrorCode(confirmListing({ ctx: await signedIn(stranger.account), input: { code: listing.code } }))).toBe("not_found");
    expect(await appErrorCode(confirmListing({ ctx, input: { code: "ZZZZZZZZ" } }))).toBe("not_found");
  });

  it("lets an agency owner confirm an agent's listing, and not another agent", async () => {
    const agency = `Agency ${newId("agency")}`;
    const agent = await unconfirmedListing({ account: { agency, role: "agent" } });
    const owner = await accountWithKey({ account: { agency, role: "owner" } });
    const colleague = await accountWithKey({ account: { agency, role: "agent" } });

    expect(await appErrorCode(confirmListing({ ctx: await signedIn(colleague.account), input: { code: agent.listing.code } }))).toBe(
      "not_found",
    );
    await confirmListing({ ctx: await signedIn(owner.account), input: { code: agent.listing.code } });
    expect((await rowOf(agent.listing.code)).status).toBe("active");
    // The event goes to the listing's account, whoever confirmed it.
    expect(await eventTypesOf(agent.key)).toEqual(["listing.published:active", "listing.published:active"]);
  });
});

describe("remindConfirmationDue", () => {
  it("mails the owner once per confirmation period, in the owner's language, 3 days before the 30 days end", async () => {
    const { account, listing, confirmedAt } = await holderWithListing({ account: { locale: "en" } }, band());
    const run = async (at: Date) => remindConfirmationDue({ ctx: systemContext(await database(), { now: at }) });

    await run(daysAfter(confirmedAt, 26.9));
    expect(await mailTo(account.email)).toHaveLength(0);

    const remindAt = daysAfter(confirmedAt, 27.5);
    expect((await run(remindAt)).reminded).toBeGreaterThanOrEqual(1);
    expect((await run(daysAfter(confirmedAt, 28))).reminded).toBe(0);
    const mails = await mailTo(account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Are your listings still available\? Confirm by /);
    expect(mails[0].text).toContain(`(${listing.code})`);
    expect(mails[0].text).toContain("http://localhost:3000/account/listings?status=active");
    expect((await rowOf(listing.code)).confirmationRemindedAt).toEqual(remindAt);

    // Confirmed early: a new period, with its own reminder.
    const confirmedAgain = daysAfter(confirmedAt, 28);
    await confirmListing({ ctx: await signedIn(account, confirmedAgain), input: { code: listing.code } });
    await run(daysAfter(confirmedAgain, 10));
    expect(await mailTo(account.email)).toHaveLength(1);
    await run(daysAfter(confirmedAgain, 27.5));
    expect(await mailTo(account.email)).toHaveLength(2);
  });

  it("writes in Romanian to a Romanian account, one mail for all its listings due, none for listings past their 30 days", async () => {
    const { account, key, listing, confirmedAt } = await holderWithListing({ account: { locale: "ro" } }, band());
    const second = await activeListing(key);
    await confirmedAtMoment(second.code, confirmedAt);

    await remindConfirmationDue({ ctx: systemContext(await database(), { now: daysAfter(confirmedAt, 30.5) }) });
    expect(await mailTo(account.email)).toHaveLength(0);

    await remindConfirmationDue({ ctx: systemContext(await database(), { now: daysAfter(confirmedAt, 28) }) });
    const mails = await mailTo(account.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toMatch(/^Anunțurile dumneavoastră mai sunt disponibile\?/);
    expect(mails[0].text).toContain(`(${listing.code})`);
    expect(mails[0].text).toContain(`(${second.code})`);
  });
});

describe("jobs:run --now (the controllable clock)", () => {
  it("runs the jobs due at the given moment as of that moment", async () => {
    const { account, listing, confirmedAt } = await holderWithListing({}, band());
    const run = async (at: Date) =>
      executeCommand(await database(), { command: "jobs:run", args: { now: at.toISOString(), jobs: "listings.remind-confirmation" } });

    // As the server does at start: the job's next occurrence is queued on the real clock.
    await run(new Date());
    const reply = await run(daysAfter(confirmedAt, 27.5));

    expect(reply).toMatchObject({
      exit_code: 0,
      result: { outcomes: [expect.objectContaining({ name: "listings.remind-confirmation", status: "done" })] },
    });
    expect(await mailTo(account.email)).toHaveLength(1);
    expect((await rowOf(listing.code)).confirmationRemindedAt).toEqual(daysAfter(confirmedAt, 27.5));
  });

  it("refuses a time that is not ISO 8601 and a job that does not exist", async () => {
    const refused = await executeCommand(await database(), { command: "jobs:run", args: { now: "tomorrow", jobs: "nope" } });
    expect(refused).toMatchObject({ exit_code: 2 });
    expect(JSON.stringify(refused)).toContain("/now");
    expect(JSON.stringify(refused)).toContain("/jobs");
  });
});
