import { and, asc, eq, inArray } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/db";
import {
  accounts,
  agencies,
  agencyMembers,
  apiKeys,
  events,
  listingReports,
  listings,
  listingStatuses,
  oauthClients,
  oauthConnections,
  photos,
  uploads,
  webhookDeliveries,
  webhooks,
} from "@/db/schema";
import { blobStorage } from "@/lib/infra/storage";
import { createAccount } from "@/lib/domain/accounts/create-account";
import { seedIntegrations, integratorAppName } from "@/lib/domain/seed/integrations";
import { drawSamplePhotos, listingShape, samplePhotoHeight, samplePhotoWidth } from "@/lib/domain/seed/sample-photos";
import { sandboxReceiverUrl } from "@/lib/domain/webhooks/sandbox-receiver";
import { authenticate } from "@/lib/domain/keys/authenticate";
import { validateListing } from "@/lib/domain/listings/validation";
import { demoEmail, seedSandbox, type SeedResult } from "@/lib/domain/seed";
import { devConsoleKeyName, issueDevConsoleKey } from "@/lib/domain/seed/dev-console-key";
import { sandboxListings } from "@/lib/domain/seed/listing-documents";
import { fixturePasswordHash, operatorCtx } from "../support/fixtures";
import { newId } from "@/lib/base/ids";
import { cli } from "./support";
import { restoreEnv, setEnv } from "../support/env";

// The receiver's address is this server's, a loopback one: as under `npm run dev` (.env.development).
// Seeding draws, uploads and processes about 50 photos: longer than a test's 30 s on a busy machine.
beforeAll(async () => {
  setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
  await seedOnce();
}, 300_000);
afterAll(() => {
  restoreEnv();
});

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

  it("gives every listing 2 to 4 drawn photos, uploaded and processed by the photo pipeline into its three sizes", async () => {
    const first = await seedOnce();
    if (!first.seeded) throw new Error(`not seeded: ${first.reason}`);
    const { connection: db } = await database();
    const rows = await db
      .select()
      .from(listings)
      .where(
        inArray(
          listings.code,
          first.listings.codes.map((listing) => listing.code),
        ),
      );
    expect(rows).toHaveLength(first.listings.total);
    let total = 0;
    for (const listing of rows) {
      const own = await db.select().from(photos).where(eq(photos.listingId, listing.id)).orderBy(asc(photos.position));
      total += own.length;
      expect(own.length, listing.code).toBeGreaterThanOrEqual(2);
      expect(own.length, listing.code).toBeLessThanOrEqual(4);
      expect(listing.mediaProcessing).toBe(false);
      // The listing's `images`: the 1600 px WebP of each photo, the cover first.
      expect(listing.images).toEqual(own.map((photo) => photo.derivatives!.webp_1600.url));
      for (const photo of own) {
        expect(photo).toMatchObject({ state: "done", sourceUrl: null, width: samplePhotoWidth, height: samplePhotoHeight });
        expect(photo.placeholder).toEqual(expect.any(String));
        const [upload] = await db.select().from(uploads).where(eq(uploads.key, photo.uploadKey!));
        expect(upload).toMatchObject({ accountId: listing.accountId, storedAt: expect.any(Date) });
        const sizes = photo.derivatives!;
        expect(sizes.webp_1600).toMatchObject({ contentType: "image/webp", width: 1600, height: samplePhotoHeight });
        expect(sizes.jpeg_1600).toMatchObject({ contentType: "image/jpeg", width: 1600, height: samplePhotoHeight });
        expect(sizes.webp_400).toMatchObject({ contentType: "image/webp", width: 400 });
        for (const size of Object.values(sizes)) {
          const stored = await blobStorage().get(size.key);
          expect(stored, size.key).not.toBeNull();
          const bytes = Buffer.from(await new Response(stored!.body as ReadableStream).arrayBuffer());
          expect(await sharp(bytes).metadata()).toMatchObject({
            width: size.width,
            height: size.height,
            format: size.contentType === "image/jpeg" ? "jpeg" : "webp",
          });
        }
      }
      // The outside first (the cover), never the plan; homes and offices have their floor plan among them.
      expect(own[0].rooms).not.toContain("floor_plan");
      if (["apartment", "house", "office", "commercial"].includes(listing.type))
        expect(own.some((photo) => photo.rooms.includes("floor_plan"))).toBe(true);
    }
    expect(first.listings.photos).toBe(total);
  });

  it("draws the same pictures for a listing on every seed, and different ones for different listings", async () => {
    const [one, other] = sandboxListings(new Date()).map((plan) => listingShape(plan.document));
    const [a, b, c] = await Promise.all([drawSamplePhotos(one), drawSamplePhotos(one), drawSamplePhotos(other)]);
    expect(a.map((photo) => photo.bytes.equals(b[a.indexOf(photo)].bytes))).toEqual(a.map(() => true));
    expect(a[0].bytes.equals(c[0].bytes)).toBe(false);
    const plan = a.find((photo) => photo.rooms.includes("floor_plan"))!;
    expect(plan.contentType).toBe("image/png");
    expect(await sharp(plan.bytes).metadata()).toMatchObject({ format: "png", width: samplePhotoWidth, height: samplePhotoHeight });
  });

  it("adds no photo, upload or webhook when it runs again", async () => {
    const first = await seedOnce();
    if (!first.seeded) throw new Error(`not seeded: ${first.reason}`);
    const { connection: db } = await database();
    const owners = [...new Set(first.accounts.map((account) => account.id))];
    const count = async () => ({
      photos: (
        await db
          .select({ id: photos.id })
          .from(photos)
          .innerJoin(listings, eq(listings.id, photos.listingId))
          .where(inArray(listings.accountId, owners))
      ).length,
      uploads: (await db.select({ key: uploads.key }).from(uploads).where(inArray(uploads.accountId, owners))).length,
      webhooks: (await db.select({ id: webhooks.id }).from(webhooks).where(inArray(webhooks.accountId, owners))).length,
      apps: (await db.select({ id: oauthClients.id }).from(oauthClients).where(inArray(oauthClients.accountId, owners))).length,
    });
    const before = await count();
    expect(before).toEqual({ photos: first.listings.photos, uploads: first.listings.photos, webhooks: 2, apps: 1 });
    expect(await seedSandbox({ ctx: await operatorCtx() })).toMatchObject({ seeded: false });
    expect(await count()).toEqual(before);
  });

  it("connects the demo account to the integrator's app and points both webhooks at the sandbox's receiver, with events to deliver", async () => {
    const first = await seedOnce();
    if (!first.seeded) throw new Error(`not seeded: ${first.reason}`);
    const { connection: db } = await database();
    const idOf = (email: string) => first.accounts.find((account) => account.email === email)!.id;
    const demoId = idOf(demoEmail);
    const integratorId = idOf("integrator@example.com");
    const { integrations } = first;

    const [app] = await db.select().from(oauthClients).where(eq(oauthClients.id, integrations.app.client_id));
    expect(app).toMatchObject({ accountId: integratorId, name: integratorAppName, redirectUris: [integrations.app.redirect_uri] });
    const [connection] = await db.select().from(oauthConnections).where(eq(oauthConnections.id, integrations.connection.connection_id));
    expect(connection).toMatchObject({ accountId: demoId, clientId: app.id, disconnectedAt: null });
    expect(connection.scope).toEqual(["listings:read", "listings:write", "media:write"]);
    const connectionKeys = await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.connectionId, connection.id), eq(apiKeys.accountId, demoId)));
    expect(connectionKeys.filter((key) => key.revokedAt === null)).toHaveLength(1);

    expect(Array.isArray(integrations.webhooks)).toBe(true);
    const hooks = await db
      .select()
      .from(webhooks)
      .where(inArray(webhooks.accountId, [demoId, integratorId]));
    expect(hooks.map((hook) => [hook.accountId, hook.clientId, hook.url]).sort()).toEqual(
      [
        [demoId, null, sandboxReceiverUrl(demoId)],
        [integratorId, app.id, sandboxReceiverUrl(integratorId)],
      ].sort(),
    );

    // The demo account's listings recorded their events (its key came first), each delivered to both webhooks.
    const recorded = await db.select().from(events).where(eq(events.accountId, demoId));
    expect(new Set(recorded.map((row) => row.type))).toEqual(
      new Set(["listing.published", "listing.rejected", "listing.paused", "listing.sold", "listing.withdrawn"]),
    );
    for (const hook of hooks) {
      const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook.id));
      expect(deliveries, hook.id).toHaveLength(recorded.length);
      expect(deliveries.every((delivery) => delivery.connectionId === (hook.clientId ? connection.id : null))).toBe(true);
    }
  });

  it("leaves the webhooks out, saying why, where loopback addresses are refused (no UNSAFE_ALLOW_LOCAL_URLS)", async () => {
    setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "0" });
    try {
      const ctx = await operatorCtx();
      const make = (name: string) =>
        createAccount({
          ctx,
          input: { email: `${newId("account")}@example.test`, name, passwordHash: fixturePasswordHash, confirmed: true },
        });
      const [demo, integrator] = [await make("Demo"), await make("Integrator")];
      const result = await seedIntegrations({ ctx, accounts: { demo, integrator } as Parameters<typeof seedIntegrations>[0]["accounts"] });
      expect(result.webhooks).toEqual({ skipped: expect.stringMatching(/UNSAFE_ALLOW_LOCAL_URLS=1/) });
      expect(result.connection).toMatchObject({ connection_id: expect.any(Number) });
      const { connection: db } = await database();
      expect(
        await db
          .select()
          .from(webhooks)
          .where(inArray(webhooks.accountId, [demo.id, integrator.id])),
      ).toEqual([]);
    } finally {
      setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
    }
  });
});
