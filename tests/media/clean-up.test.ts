import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as photosRoute from "@/app/api/v1/listings/[code]/photos/route";
import * as listingRoute from "@/app/api/v1/listings/[code]/route";
import { database } from "@/db";
import { blobGarbage, photos, uploads } from "@/db/schema";
import { cleanUpPhotoFiles } from "@/lib/domain/media/clean-up-files";
import { createUpload } from "@/lib/domain/media/create-upload";
import { uploadBlobKey } from "@/lib/domain/media/limits";
import { accountContext, systemContext } from "@/lib/base/context";
import { processPhotosJob } from "@/lib/adapters/jobs/photo-jobs";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { accountWithKey, call } from "../support/fixtures";
import { createListing } from "../support/listings";
import { pngPhoto, webpPhoto } from "./images";
import { readBlob, storageKinds, uploaded, useStorage } from "./support";

const hours = (n: number) => n * 3600_000;

async function cleanUp(now = new Date()) {
  return cleanUpPhotoFiles({ ctx: systemContext(await database(), { now }) });
}

describe.each(storageKinds)("photo file clean-up, %s storage", (kind) => {
  const { storage } = useStorage(kind);

  it("deletes upload keys unused after 24 hours with their files, and keeps recent ones and those photos use", async () => {
    const { key, account } = await accountWithKey();
    const db = await database();
    const old = accountContext(db, { accountId: account.id, agency: null }, { now: new Date(Date.now() - hours(25)) });
    const stale = await createUpload({ ctx: old, input: { content_length: 3 } });
    await storage().put(uploadBlobKey(stale.key), Buffer.from("old"), "application/octet-stream");
    const fresh = await uploaded(key, await webpPhoto(20, 20));
    const { code } = await createListing(key);
    const used = await uploaded(key, await pngPhoto(30, 30));
    await db.connection
      .update(uploads)
      .set({ createdAt: new Date(Date.now() - hours(30)) })
      .where(eq(uploads.key, used));
    await call(photosRoute.PUT, {
      path: `/listings/${code}/photos`,
      method: "PUT",
      key,
      params: { code },
      body: { photos: [{ key: used }] },
    });

    await cleanUp();

    const left = (await db.connection.select({ key: uploads.key }).from(uploads)).map((row) => row.key);
    expect(left).not.toContain(stale.key);
    expect(left).toEqual(expect.arrayContaining([fresh, used]));
    expect(await readBlob(storage(), uploadBlobKey(stale.key))).toBeNull();
    expect(await readBlob(storage(), uploadBlobKey(fresh))).not.toBeNull();
    expect(await readBlob(storage(), uploadBlobKey(used))).not.toBeNull();
  });

  it("leaves nothing in storage once a listing's photos are dropped and the listing deleted", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const first = await uploaded(key, await webpPhoto(60, 40));
    const second = await uploaded(key, await pngPhoto(50, 50));
    const put = (list: unknown) =>
      call(photosRoute.PUT, { path: `/listings/${code}/photos`, method: "PUT", key, params: { code }, body: { photos: list } });
    await put([{ key: first }, { key: second }]);
    await runDueJobs({ database: await database(), jobs: [processPhotosJob] });
    const db = (await database()).connection;
    const rows = await db.select().from(photos).where(eq(photos.uploadKey, first));
    const [dropped] = await db.select().from(photos).where(eq(photos.uploadKey, second));
    const droppedFiles = Object.values(dropped.derivatives!).map((d) => d.key);
    const keptFiles = Object.values(rows[0].derivatives!).map((d) => d.key);

    // Dropped from the list: its files are queued, then deleted.
    await put([{ key: first }]);
    expect((await db.select().from(blobGarbage)).map((row) => row.key)).toEqual(expect.arrayContaining(droppedFiles));
    expect((await cleanUp()).files).toBeGreaterThanOrEqual(3);
    for (const file of droppedFiles) expect(await readBlob(storage(), file), file).toBeNull();
    for (const file of keptFiles) expect(await readBlob(storage(), file), file).not.toBeNull();

    // The listing deleted: its photos and their files go, then (a day later) the unused uploads.
    const deleted = await call(listingRoute.DELETE, { path: `/listings/${code}`, method: "DELETE", key, params: { code } });
    expect(deleted.status).toBe(204);
    const summary = await cleanUp();
    expect(summary.photosOfDeletedListings).toBe(1);
    for (const file of keptFiles) expect(await readBlob(storage(), file), file).toBeNull();
    expect(await db.select().from(photos).where(eq(photos.uploadKey, first))).toEqual([]);
    // Its own uploads made older, rather than the clock moved on: on PostgreSQL every test file shares
    // one database, and a clean-up a day ahead would take the uploads other files are about to use.
    await db
      .update(uploads)
      .set({ createdAt: new Date(Date.now() - hours(25)) })
      .where(inArray(uploads.key, [first, second]));
    await cleanUp();
    for (const upload of [first, second]) expect(await readBlob(storage(), uploadBlobKey(upload)), upload).toBeNull();
    expect(await db.select().from(blobGarbage)).toEqual([]);
  });
});
