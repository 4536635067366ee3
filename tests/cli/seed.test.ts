import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { accounts, agencies, agencyMembers, apiKeys, listingReports, listings, listingStatuses } from "@/db/schema";
import { authenticate } from "@/lib/domain/keys/authenticate";
import { validateListing } from "@/lib/domain/listings/validation";
import { demoEmail, seedSandbox, type SeedResult } from "@/lib/domain/seed";
import { devConsoleKeyName, issueDevConsoleKey } from "@/lib/domain/seed/dev-console-key";
import { sandboxListings } from "@/lib/domain/seed/listing-documents";
import { operatorCtx } from "../support/fixtures";
import { cli } from "./support";

// Each test file has a database of its own (one shared run database on PostgreSQL): the first call seeds it.
let firstSeed: Promise<SeedResult> | undefined;
const seedOnce = async () => (firstSeed ??= seedSandbox({ ctx: await operatorCtx() }));

describe("seedSandbox", () => {
  it("creates the demo account, the agency with its three roles and a moderator, once", async () => {
    const ctx = await operatorCtx();
    await seedOnce();
    expect(await seedSandbox({ ctx })).toEqual({ seeded: false, reason: `${demoEmail} exists already` });
    const again = await cli("db:seed");
    expect(again).toMatchObject({ exitCode: 0, result: { seeded: false } });

    const { connection: db } = await database();
    const [demo] = await db.select().from(accounts).where(eq(accounts.email, demoEmail));
    expect(demo).toMatchObject({ confirmed: true, language: "ro", phone: expect.stringMatching(/^\+40/), active: true });
    const members = await db
      .select({ role: agencyMembers.role })
      .from(agencyMembers)
      .innerJoin(agencies, eq(agencies.id, agencyMembers.agencyId))
      .where(eq(agencies.name, "Demo Imobiliare"));
    expect(members.map((member) => member.role).sort()).toEqual(["admin", "agent", "owner"]);
    const moderators = await db.select().from(accounts).where(eq(accounts.isModerator, true));
    expect(moderators.length).toBeGreaterThanOrEqual(1);
  });

  it("creates listings in every state, of every property type, through the real services", async () => {
    const ctx = await operatorCtx();
    const first = await seedOnce();
    if (!first.seeded) throw new Error(`not seeded: ${first.reason}`);
    const { listings: seeded } = first;
    expect(Object.keys(seeded.by_status).sort()).toEqual([...listingStatuses].sort());
    for (const status of listingStatuses) expect(seeded.by_status[status], status).toBeGreaterThanOrEqual(1);

    const { connection: db } = await database();
    const rows = await db
      .select()
      .from(listings)
      .where(
        inArray(
          listings.code,
          seeded.codes.map((listing) => listing.code),
        ),
      );
    expect(rows).toHaveLength(seeded.total);
    const demoRows = rows.filter((row) => seeded.codes.find((listing) => listing.code === row.code)!.seller === demoEmail);
    expect(new Set(demoRows.map((row) => row.status))).toEqual(new Set(listingStatuses));
    expect(new Set(rows.map((row) => row.type))).toEqual(
      new Set(["apartment", "house", "land", "office", "commercial", "industrial", "development"]),
    );
    expect(rows.filter((row) => row.agencyId !== null).length).toBeGreaterThanOrEqual(3);
    expect(rows.filter((row) => row.externalRef !== null).length).toBeGreaterThanOrEqual(3);
    expect(rows.some((row) => row.status === "active" && row.pendingFields !== null)).toBe(true);
    expect(rows.find((row) => row.status === "rejected")).toMatchObject({
      rejectionReason: expect.any(String),
      rejectionCodes: ["misleading_price"],
    });

    const reported = await db
      .select({ code: listings.code })
      .from(listingReports)
      .innerJoin(listings, eq(listings.id, listingReports.listingId))
      .where(
        and(
          eq(listingReports.status, "open"),
          inArray(
            listings.id,
            rows.map((row) => row.id),
          ),
        ),
      );
    expect(reported).toHaveLength(1);

    expect(await seedSandbox({ ctx })).toMatchObject({ seeded: false });
    const after = await db
      .select({ id: listings.id })
      .from(listings)
      .where(inArray(listings.accountId, [...new Set(rows.map((row) => row.accountId))]));
    expect(after).toHaveLength(seeded.total);
  });

  it("seeds only documents the validator accepts without warnings, whenever it runs", () => {
    const now = new Date();
    const rates = { EUR: { eurPerUnit: 1, updatedAt: now } };
    for (const plan of sandboxListings(now)) {
      const document = { ...plan.document, ...plan.pendingEdit };
      expect(validateListing({ document, mode: "create", rates, now }), String(document.title)).toMatchObject({ ok: true, warnings: [] });
    }
  });

  it("gives the demo account a fresh dev console key on each start, revoking the previous one", async () => {
    const ctx = await operatorCtx();
    await seedOnce();
    const first = await issueDevConsoleKey({ ctx });
    const second = await issueDevConsoleKey({ ctx });
    const { connection: db } = await database();
    await expect(authenticate(await database(), second!.key, new Date())).resolves.toMatchObject({
      key: { name: devConsoleKeyName, permissions: ["listings:read", "listings:write", "media:write"] },
    });
    await expect(authenticate(await database(), first!.key, new Date())).rejects.toMatchObject({ code: "unauthenticated" });
    const rows = await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.name, devConsoleKeyName), inArray(apiKeys.id, [first!.id, second!.id])));
    expect(rows.filter((row) => row.revokedAt === null).map((row) => row.id)).toEqual([second!.id]);
  });
});
