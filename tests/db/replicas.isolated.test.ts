import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as catalogRoute } from "@/app/api/v1/listings/route";
import { GET as catalogListingRoute, PATCH as editRoute } from "@/app/api/v1/listings/[code]/route";
import { GET as accountListingRoute } from "@/app/api/v1/account/listings/[code]/route";
import { GET as schemaRoute } from "@/app/api/v1/schema/route";
import { database, resultRows, type Database } from "@/db";
import { openDatabase } from "@/db/client";
import { resetConfig } from "@/lib/base/config";
import { publicContext, readMayLag, withTransaction } from "@/lib/base/context";
import { logger } from "@/lib/base/logger";
import { auth } from "@/lib/adapters/portal/auth";
import { catalogContext } from "@/lib/adapters/portal/session";
import { listCatalog } from "@/lib/domain/listings/list";
import { itemOf } from "@/lib/domain/listings/read-shape";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing, createListing, validApartment } from "../support/listings";
import { ensureReplica, replicaUrlOf, startReplicaProxy, waitForReplay, withReplayPaused } from "../support/replica";

// The portal's session, as Auth.js would read it from the request's cookie: the test says who is signed in.
vi.mock("@/lib/adapters/portal/auth", () => ({ auth: vi.fn(async () => null) }));

/**
 * Read replicas against a real hot standby (scripts/pg-replica.sh, `pg_basebackup -R` of the test
 * cluster): the public catalog is read there, an owner's reads stay on the primary, and a replica
 * that is down costs no request its answer. A process of its own: the process database opens here
 * with `DATABASE_REPLICA_URLS` set, pointing at a proxy of this file's in front of the standby.
 */
const directUrl = process.env.DATABASE_URL_UNPOOLED ?? process.env.DATABASE_URL;

/** A city no other listing of the run has, so that a catalog search finds this test's listings only. */
const uniqueCity = () =>
  `Replica ${randomBytes(4)
    .toString("hex")
    .replace(/\d/g, (digit) => "abcdefghij"[Number(digit)])}`;

const inRecovery = async (db: Database, reads: "replicas" | "primary") =>
  readMayLag(
    publicContext(db, { reads }),
    async (ctx) => resultRows<{ standby: boolean }>(await ctx.db.execute(sql`select pg_is_in_recovery() as standby`))[0].standby,
  );

const catalogCodes = async (key: string, city: string) => {
  const res = await call(catalogRoute, { path: `/listings?city=${encodeURIComponent(city)}`, key });
  expect(res.status).toBe(200);
  return (res.json!.data as { code: string }[]).map((item) => item.code);
};

describe.skipIf(!directUrl)("read replicas on a real hot standby (skipped: DATABASE_URL is not set; npm run test:pg runs it)", () => {
  let proxy: Awaited<ReturnType<typeof startReplicaProxy>>;

  beforeAll(async () => {
    await ensureReplica();
    proxy = await startReplicaProxy();
    process.env.DATABASE_REPLICA_URLS = replicaUrlOf(directUrl!, proxy.port);
    resetConfig();
    // The run's database was created and migrated on the primary: the standby has it once it has replayed that.
    await waitForReplay(directUrl!);
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it("reads that tolerate lag are answered by the replica, the others by the primary", async () => {
    const db = await database();
    expect(db.replicas?.replicas.map((replica) => replica.name)).toEqual([
      new URL(process.env.DATABASE_REPLICA_URLS!).host + new URL(directUrl!).pathname,
    ]);
    expect(await inRecovery(db, "replicas")).toBe(true);
    expect(await inRecovery(db, "primary")).toBe(false);
    // A read inside a transaction stays with its transaction, on the primary.
    const inTransaction = await withTransaction(publicContext(db), (ctx) =>
      readMayLag(
        ctx,
        async (reader) => resultRows<{ standby: boolean }>(await reader.db.execute(sql`select pg_is_in_recovery() as standby`))[0].standby,
      ),
    );
    expect(inTransaction).toBe(false);
  });

  it("the catalog may lag while replay is paused; the owner's reads of its own writes never do", async () => {
    const { key } = await accountWithKey();
    const city = uniqueCity();
    const shown = await activeListing(key, validApartment({ city, title: "Apartament văzut de replică" }));
    await waitForReplay(directUrl!);
    expect(await catalogCodes(key, city)).toEqual([shown.code]);

    const { later, created } = await withReplayPaused(directUrl!, async () => {
      const later = await activeListing(key, validApartment({ city }));
      // Served by the replica, which has not replayed the approval: the catalog and its detail lag.
      expect(await catalogCodes(key, city)).toEqual([shown.code]);
      const detail = await call(catalogListingRoute, { path: `/listings/${later.code}`, key, params: { code: later.code } });
      expect(detail.status).toBe(404);
      // The owner's own reads and writes go to the primary: what it has just written, it reads back.
      const created = await createListing(key, validApartment({ city }));
      const own = await call(accountListingRoute, { path: `/account/listings/${created.code}`, key, params: { code: created.code } });
      expect(own.status).toBe(200);
      expect(own.json!.data.etag).toBe(created.etag);
      const edited = await call(editRoute, {
        path: `/listings/${created.code}`,
        method: "PATCH",
        key,
        body: { title: "Titlu schimbat cât replica stă" },
        params: { code: created.code },
        headers: { "content-type": "application/merge-patch+json", "if-match": created.etag },
      });
      expect(edited.status).toBe(200);
      const reread = await call(accountListingRoute, { path: `/account/listings/${created.code}`, key, params: { code: created.code } });
      expect(reread.json!.data.title).toBe("Titlu schimbat cât replica stă");
      expect(reread.json!.data.etag).toBe(edited.json!.data.etag);
      return { later, created };
    });

    // Replay resumed: the catalog catches up (the listing still in moderation stays out of it).
    await waitForReplay(directUrl!);
    expect((await catalogCodes(key, city)).sort()).toEqual([shown.code, later.code].sort());
    expect(await catalogCodes(key, city)).not.toContain(created.code);
  });

  it("the catalog's pages read the replica for a visitor signed out, the primary for one signed in", async () => {
    const { account, key } = await accountWithKey();
    const city = uniqueCity();
    const shown = async () =>
      (await listCatalog({ ctx: await catalogContext(), input: { query: { city, per_page: 10 } } })).page.items.map(
        (row) => itemOf(row).code,
      );
    await withReplayPaused(directUrl!, async () => {
      const listing = await activeListing(key, validApartment({ city }));
      vi.mocked(auth).mockResolvedValue(null as never);
      expect(await shown()).toEqual([]);
      // Signed in, the visitor may be looking for the listing just published: the primary answers.
      vi.mocked(auth).mockResolvedValue({ accountId: account.id, sessionGeneration: 0 } as never);
      expect(await shown()).toEqual([listing.code]);
    });
  });

  it("a replica that is down: catalog reads answer 200 from the primary, the warning is logged once, and it is not tried on every read", async () => {
    const { key } = await accountWithKey();
    const city = uniqueCity();
    const listing = await activeListing(key, validApartment({ city }));
    const warn = vi.spyOn(logger, "warn");
    try {
      proxy.takeDown();
      expect(await catalogCodes(key, city)).toEqual([listing.code]);
      // That read met the replica down (on its ended session, or a new one refused): the replica rests.
      const triesAfterFirstRead = proxy.attemptsWhileDown();
      for (let read = 0; read < 2; read++) expect(await catalogCodes(key, city)).toEqual([listing.code]);
      const detail = await call(catalogListingRoute, { path: `/listings/${listing.code}`, key, params: { code: listing.code } });
      expect(detail.status).toBe(200);
      const vocabulary = await call(schemaRoute, { path: "/schema" });
      expect(vocabulary.status).toBe(200);
      const warnings = warn.mock.calls.filter(([message]) => message.startsWith("read replica unreachable"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0][1]).toMatchObject({ replica: `127.0.0.1:${proxy.port}${new URL(directUrl!).pathname}` });
      // Resting: the reads after the first failure went straight to the primary, none tried the replica.
      expect(proxy.attemptsWhileDown()).toBe(triesAfterFirstRead);
    } finally {
      warn.mockRestore();
      proxy.bringBack();
    }
  });

  it("a replica back after resting serves again, said once in the log", async () => {
    const { key } = await accountWithKey();
    const city = uniqueCity();
    const listing = await activeListing(key, validApartment({ city }));
    await waitForReplay(directUrl!);
    const retryMs = 200;
    const own = await openDatabase({
      url: directUrl!,
      replicaUrls: [replicaUrlOf(directUrl!, proxy.port)],
      replicaRetryMs: retryMs,
    });
    const warn = vi.spyOn(logger, "warn");
    const info = vi.spyOn(logger, "info");
    try {
      const catalog = async () =>
        (await listCatalog({ ctx: publicContext(own), input: { query: { city, per_page: 10 } } })).page.items.map(
          (row) => itemOf(row).code,
        );
      proxy.takeDown();
      expect(await catalog()).toEqual([listing.code]);
      expect(await inRecovery(own, "replicas")).toBe(false);
      proxy.bringBack();
      // Still resting: the primary answers until the rest is over, whatever the replica does meanwhile.
      expect(await inRecovery(own, "replicas")).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, retryMs * 2));
      expect(await inRecovery(own, "replicas")).toBe(true);
      expect(await catalog()).toEqual([listing.code]);
      expect(warn.mock.calls.filter(([message]) => message.startsWith("read replica unreachable"))).toHaveLength(1);
      expect(info.mock.calls.filter(([message]) => message === "read replica serves again")).toHaveLength(1);
    } finally {
      warn.mockRestore();
      info.mockRestore();
      proxy.bringBack();
      await own.close();
    }
  });
});
