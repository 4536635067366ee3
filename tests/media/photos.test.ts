import { and, asc, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as photosRoute from "@/app/api/v1/listings/[code]/photos/route";
import * as accountListingRoute from "@/app/api/v1/account/listings/[code]/route";
import { database } from "@/db";
import { events, jobs, listings, photoLists, photos } from "@/db/schema";
import { InngestTestEngine } from "@inngest/test";
import { createJobFunction } from "@/inngest/functions/run-job";
import { processListingPhotos } from "@/lib/domain/media/process-photos";
import { systemContext } from "@/lib/base/context";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { processPhotosJob } from "@/lib/adapters/jobs/photo-jobs";
import { accountWithKey, call } from "../support/fixtures";
import { createListing } from "../support/listings";
import { closedPort, startHttpServer, type LocalServer } from "../support/local-http-server";
import { blankPng, jpegPhoto, pngPhoto, webpPhoto } from "./images";
import { readBlob, storageKinds, uploaded, useStorage } from "./support";
import { setEnv } from "../support/env";

type PhotoInput = { url?: string; key?: string; floor?: string; rooms?: string[] };

const putPhotos = (key: string, code: string, list: unknown, query = "") =>
  call(photosRoute.PUT, { path: `/listings/${code}/photos${query}`, method: "PUT", key, params: { code }, body: list });

async function detail(key: string, code: string) {
  const res = await call(accountListingRoute.GET, { path: `/account/listings/${code}`, key, params: { code } });
  expect(res.status).toBe(200);
  return res.json!.data as { images: string[]; media: { processing: boolean }; etag: string };
}

async function runPhotoJobs() {
  return runDueJobs({ database: await database(), jobs: [processPhotosJob] });
}

async function photoRows(code: string) {
  const db = (await database()).connection;
  const [listing] = await db.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
  return db.select().from(photos).where(eq(photos.listingId, listing.id)).orderBy(asc(photos.position));
}

/** This listing's jobs: on PostgreSQL other files queue theirs in the same table meanwhile. */
async function jobsOf(code: string) {
  const db = (await database()).connection;
  const [listing] = await db.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
  return db
    .select({ id: jobs.id })
    .from(jobs)
    .where(sql`${jobs.payload}->>'listingId' = ${listing.id}`);
}

async function mediaFailed(accountId: string) {
  const db = (await database()).connection;
  const rows = await db
    .select()
    .from(events)
    .where(and(eq(events.accountId, accountId), eq(events.type, "media.failed")))
    .orderBy(asc(events.seq));
  return rows.map((row) => row.data);
}

/** A local server of photos (allowed by UNSAFE_ALLOW_LOCAL_URLS=1): each path answers its bytes, or 404. */
let server: LocalServer;
const served = new Map<string, { type: string; bytes: Buffer }>();
const at = (path: string) => `${server.origin}${path}`;

beforeAll(async () => {
  setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
  server = await startHttpServer((request, res) => {
    if (request.url === "/moved") {
      res.writeHead(302, { location: "/photo-a.jpg" }).end();
      return;
    }
    if (request.url === "/to-metadata") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
      return;
    }
    if (request.url === "/endless.jpg") {
      // No Content-Length: the cap must hold while reading. 21 MiB of a JPEG's first bytes, then more.
      res.writeHead(200, { "content-type": "image/jpeg" });
      const block = Buffer.alloc(1024 * 1024, 0xff);
      for (let i = 0; i < 21; i++) res.write(block);
      res.end();
      return;
    }
    const file = served.get(request.url);
    if (!file) res.writeHead(404, { "content-type": "text/plain" }).end("not here");
    else res.writeHead(200, { "content-type": file.type, "content-length": String(file.bytes.length) }).end(file.bytes);
  });
  served.set("/photo-a.jpg", { type: "image/jpeg", bytes: await jpegPhoto({ gps: true }) });
  served.set("/photo-b.png", { type: "image/png", bytes: await pngPhoto() });
  served.set("/photo-c.webp", { type: "image/webp", bytes: await webpPhoto() });
  served.set("/not-an-image.jpg", { type: "image/jpeg", bytes: Buffer.from("<html>this is no photo</html>") });
  served.set("/huge.png", { type: "image/png", bytes: blankPng(15_000, 10_000) });
  served.set("/bomb.png", { type: "image/png", bytes: blankPng(20_000, 20_000) });
});

afterAll(async () => {
  await server.close();
});

describe.each(storageKinds)("photos on %s storage", (kind) => {
  const { storage } = useStorage(kind);
  beforeAll(() => {
    // useStorage resets the environment after its file; the photo server's setting is wanted here too.
    setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
  });

  it("processes URLs and an upload into ordered derivatives without metadata, media.processing true until done", async () => {
    const { key, account } = await accountWithKey();
    const { code } = await createListing(key);
    const uploadKey = await uploaded(key, await jpegPhoto({ width: 900, height: 600, gps: true, orientation: 6 }));
    const list: PhotoInput[] = [
      { url: at("/photo-b.png"), floor: "ground", rooms: ["living_room", "kitchen"] },
      { key: uploadKey, floor: "1" },
      // Redirected to /photo-a.jpg on the same (allowed) host.
      { url: at("/moved") },
      { url: at("/photo-c.webp"), rooms: ["facade"] },
    ];
    // The sources carry EXIF with a GPS directory (tag 0x8825, in either byte order).
    const gpsTag = (exif: Buffer | undefined) =>
      Boolean(exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))));
    expect(gpsTag((await sharp(served.get("/photo-a.jpg")!.bytes).metadata()).exif)).toBe(true);
    const res = await putPhotos(key, code, { photos: list });
    expect(res).toMatchObject({ status: 202, json: { queued: 4 } });
    expect((await detail(key, code)).media.processing).toBe(true);

    await runPhotoJobs();

    const after = await detail(key, code);
    expect(after.media.processing).toBe(false);
    const rows = await photoRows(code);
    expect(rows.map((row) => row.state)).toEqual(["done", "done", "done", "done"]);
    expect(after.images).toEqual(rows.map((row) => row.derivatives!.webp_1600.url));
    expect(rows.map((row) => [row.floor, row.rooms])).toEqual([
      ["ground", ["living_room", "kitchen"]],
      ["1", []],
      [null, []],
      [null, ["facade"]],
    ]);
    // The upload was turned upright by its EXIF orientation: 900 × 600 on its side is 600 × 900.
    expect([rows[1].width, rows[1].height]).toEqual([600, 900]);
    for (const row of rows) {
      expect(row.placeholder).toMatch(/^[A-Za-z0-9+/]{20,}=*$/);
      // Every photo's perceptual hash: a reorder can make any of them the cover.
      expect(typeof row.perceptualHash).toBe("bigint");
      for (const [name, derivative] of Object.entries(row.derivatives!)) {
        const bytes = await readBlob(storage(), derivative.key);
        expect(bytes, derivative.key).not.toBeNull();
        const metadata = await sharp(bytes!).metadata();
        expect(metadata.format).toBe(derivative.contentType === "image/webp" ? "webp" : "jpeg");
        expect([metadata.width, metadata.height]).toEqual([derivative.width, derivative.height]);
        // By the derivative's name (webp_400, …): its storage key holds random characters, "400" among them at times.
        expect(Math.max(derivative.width, derivative.height)).toBeLessThanOrEqual(name.endsWith("_400") ? 400 : 1600);
        // No EXIF (so no GPS), no XMP, no IPTC, no ICC profile in any output.
        expect(metadata.exif).toBeUndefined();
        expect(metadata.xmp).toBeUndefined();
        expect(metadata.iptc).toBeUndefined();
        expect(metadata.icc).toBeUndefined();
        expect(bytes!.includes("marker-of-the-source-exif")).toBe(false);
        expect(bytes!.includes("TestCam")).toBe(false);
      }
    }
    expect(await mediaFailed(account.id)).toEqual([]);
  });

  it("reports a 404 URL as download_failed with its URL and a non-image body as unprocessable, publishing the rest", async () => {
    const { key, account } = await accountWithKey();
    const { code } = await createListing(key);
    const missing = at("/gone.jpg");
    const res = await putPhotos(key, code, { photos: [{ url: missing }, { url: at("/photo-c.webp") }, { url: at("/not-an-image.jpg") }] });
    expect(res.json).toEqual({ queued: 3 });
    await runPhotoJobs();
    const rows = await photoRows(code);
    expect(rows.map((row) => [row.state, row.failureReason])).toEqual([
      ["failed", "download_failed"],
      ["done", null],
      ["failed", "unprocessable"],
    ]);
    const after = await detail(key, code);
    expect(after).toMatchObject({ media: { processing: false }, images: [rows[1].derivatives!.webp_1600.url] });
    const failures = await mediaFailed(account.id);
    expect(failures).toEqual([
      expect.objectContaining({ code, count: 1, reason: "download_failed", urls: [missing] }),
      expect.objectContaining({ code, count: 1, reason: "unprocessable" }),
    ]);
    expect(failures[1]).not.toHaveProperty("urls");
  });

  it("refuses a 150 MP image and a 400 MP decompression bomb from their headers, without decoding them", async () => {
    const { key, account } = await accountWithKey();
    const { code } = await createListing(key);
    const before = process.memoryUsage().rss;
    await putPhotos(key, code, { photos: [{ url: at("/huge.png") }, { url: at("/bomb.png") }, { url: at("/photo-c.webp") }] });
    await runPhotoJobs();
    // Decoding either would take over a gigabyte; refusing them takes next to nothing.
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
    const rows = await photoRows(code);
    expect(rows.map((row) => [row.state, row.failureReason])).toEqual([
      ["failed", "too_many_pixels"],
      ["failed", "too_many_pixels"],
      ["done", null],
    ]);
    expect(await mediaFailed(account.id)).toEqual([expect.objectContaining({ count: 2, reason: "too_many_pixels" })]);
  });

  it("reorders without processing again, deletes photos left out, and publishes the new order at once", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const a = { url: at("/photo-a.jpg") };
    const b = { url: at("/photo-b.png") };
    const c = { url: at("/photo-c.webp") };
    await putPhotos(key, code, { photos: [a, b, c] });
    await runPhotoJobs();
    const first = await photoRows(code);
    const jobsBefore = (await jobsOf(code)).length;

    const res = await putPhotos(key, code, { photos: [c, a] });
    expect(res.json).toEqual({ queued: 0 });
    const after = await detail(key, code);
    expect(after.media.processing).toBe(false);
    expect(after.images).toEqual([first[2].derivatives!.webp_1600.url, first[0].derivatives!.webp_1600.url]);
    // No job was queued and the kept photos are the same rows with the same files.
    expect((await jobsOf(code)).length).toBe(jobsBefore);
    const rows = await photoRows(code);
    expect(rows.map((row) => [row.id, row.processedAt?.getTime(), row.attempts])).toEqual([
      [first[2].id, first[2].processedAt?.getTime(), 1],
      [first[0].id, first[0].processedAt?.getTime(), 1],
    ]);
    expect(await readBlob(storage(), first[1].derivatives!.webp_1600.key)).not.toBeNull();

    // An empty list deletes them all.
    expect((await putPhotos(key, code, { photos: [] })).json).toEqual({ queued: 0 });
    expect((await detail(key, code)).images).toEqual([]);
    expect(await photoRows(code)).toEqual([]);
  });

  it("ends lists sent in quick succession in the last list's order", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const a = { url: at("/photo-a.jpg") };
    const b = { url: at("/photo-b.png") };
    const c = { url: at("/photo-c.webp") };
    await putPhotos(key, code, { photos: [a, b] });
    await putPhotos(key, code, { photos: [b, c, a] });
    await putPhotos(key, code, { photos: [c, b] });
    await runPhotoJobs();
    const rows = await photoRows(code);
    expect(rows.map((row) => [row.sourceUrl, row.state])).toEqual([
      [c.url, "done"],
      [b.url, "done"],
    ]);
    expect((await detail(key, code)).images).toEqual(rows.map((row) => row.derivatives!.webp_1600.url));
  });
});

describe("the photos.process job", () => {
  useStorage("local");
  beforeAll(() => {
    setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
  });

  it("refuses a body over 20 MiB while reading it, and a redirect to an address that is not public", async () => {
    const { key, account } = await accountWithKey();
    const { code } = await createListing(key);
    await putPhotos(key, code, { photos: [{ url: at("/endless.jpg") }, { url: at("/to-metadata") }] });
    await runPhotoJobs();
    expect((await photoRows(code)).map((row) => row.failureReason)).toEqual(["too_large", "download_failed"]);
    expect(await mediaFailed(account.id)).toEqual([
      expect.objectContaining({ reason: "too_large", count: 1 }),
      expect.objectContaining({ reason: "download_failed", urls: [at("/to-metadata")] }),
    ]);
  });

  it("lets one worker at a time hold a listing: a second finds it busy until the first gives it up", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    await putPhotos(key, code, { photos: [{ url: at("/photo-c.webp") }] });
    const db = await database();
    const [listing] = await db.connection.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
    const [first, second] = await Promise.all([
      processListingPhotos({ ctx: systemContext(db), input: { listingId: listing.id } }),
      processListingPhotos({ ctx: systemContext(db), input: { listingId: listing.id } }),
    ]);
    const outcomes = [first.status, second.status].sort();
    expect(outcomes).toEqual(["busy", "done"]);
    expect(await processListingPhotos({ ctx: systemContext(db), input: { listingId: listing.id } })).toEqual({
      status: "done",
      processed: 0,
      failed: 0,
    });
    expect((await detail(key, code)).images).toHaveLength(1);
  });

  it("finishes a list whose worker died mid-photo, once its lease has ended (a simulated crash, not a killed process)", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    await putPhotos(key, code, { photos: [{ url: at("/photo-b.png") }, { url: at("/photo-c.webp") }] });
    const db = await database();
    const [listing] = await db.connection.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
    // What a process killed while rendering the first photo leaves: the photo taken, the listing held.
    const [first] = await photoRows(code);
    await db.connection.update(photos).set({ state: "processing", attempts: 1 }).where(eq(photos.id, first.id));
    const lease = new Date(Date.now() + 60_000);
    await db.connection.update(photoLists).set({ workerUntil: lease }).where(eq(photoLists.listingId, listing.id));
    expect(await processListingPhotos({ ctx: systemContext(db), input: { listingId: listing.id } })).toEqual({
      status: "busy",
      until: lease,
    });

    await db.connection
      .update(photoLists)
      .set({ workerUntil: new Date(Date.now() - 1000) })
      .where(eq(photoLists.listingId, listing.id));
    await runPhotoJobs();
    expect((await photoRows(code)).map((row) => [row.state, row.attempts])).toEqual([
      ["done", 2],
      ["done", 1],
    ]);
    expect(await detail(key, code)).toMatchObject({ media: { processing: false } });
    expect((await detail(key, code)).images).toHaveLength(2);
  });

  it("reads the time from the context's clock: a lease ended by it is taken, and the photo and listing carry its times", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    await putPhotos(key, code, { photos: [{ url: at("/photo-c.webp") }] });
    const db = await database();
    const [listing] = await db.connection.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
    await db.connection
      .update(photoLists)
      .set({ workerUntil: new Date(Date.now() + 60_000) })
      .where(eq(photoLists.listingId, listing.id));
    const ahead = new Date(Date.now() + 6 * 60_000);
    expect(await processListingPhotos({ ctx: systemContext(db, { now: ahead }), input: { listingId: listing.id } })).toEqual({
      status: "done",
      processed: 1,
      failed: 0,
    });
    const [photo] = await photoRows(code);
    expect(photo.processedAt!.getTime()).toBeGreaterThanOrEqual(ahead.getTime());
    const [after] = await db.connection.select({ updatedAt: listings.updatedAt }).from(listings).where(eq(listings.id, listing.id));
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(photo.processedAt!.getTime());
  });

  it("gives the listing up when storage fails, so the job's retry finds it free and completes the list", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    await putPhotos(key, code, { photos: [{ url: at("/photo-c.webp") }] });
    setEnv({
      BLOB_READ_WRITE_TOKEN: "vercel_blob_rw_store1_secret",
      VERCEL_BLOB_API_URL: `http://127.0.0.1:${await closedPort()}/api/blob`,
      VERCEL_BLOB_RETRIES: "0",
    });
    let summary;
    try {
      summary = await runPhotoJobs();
    } finally {
      setEnv({ BLOB_READ_WRITE_TOKEN: undefined, VERCEL_BLOB_API_URL: undefined });
    }
    expect(summary.retrying).toBe(1);
    const db = await database();
    const [listing] = await db.connection.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
    const [list] = await db.connection.select().from(photoLists).where(eq(photoLists.listingId, listing.id));
    expect(list.workerUntil).toBeNull();
    expect((await photoRows(code)).map((row) => row.state)).toEqual(["processing"]);

    await runDueJobs({ database: db, jobs: [processPhotosJob], now: new Date(Date.now() + 11_000) });
    expect((await photoRows(code)).map((row) => row.state)).toEqual(["done"]);
    expect(await detail(key, code)).toMatchObject({ media: { processing: false } });
  });

  it("runs as an Inngest function with the same code", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    await putPhotos(key, code, { photos: [{ url: at("/photo-b.png") }] });
    const db = (await database()).connection;
    const [listing] = await db.select({ id: listings.id }).from(listings).where(eq(listings.code, code));
    const [row] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, processPhotosJob.name), eq(jobs.status, "queued"), sql`${jobs.payload}->>'listingId' = ${listing.id}`));
    const engine = new InngestTestEngine({
      function: createJobFunction(processPhotosJob, { database, now: () => new Date(), jobs: [processPhotosJob] }),
    });
    const { result } = await engine.execute({ events: [{ name: `jobs/${processPhotosJob.name}`, data: { jobId: row.id } }] });
    expect(result).toMatchObject({ status: "done", result: { status: "done", processed: 1, failed: 0 } });
    expect((await detail(key, code)).media.processing).toBe(false);
    expect((await photoRows(code)).map((photo) => photo.state)).toEqual(["done"]);
  });
});

describe("PUT /listings/{code}/photos: refusals", () => {
  useStorage("local");

  it("needs photos, at most 100, each a url or a key, a known level, at most 3 distinct room labels of 1-60 characters", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const cases: [unknown, { pointer: string; code: string; reason?: string }[]][] = [
      [{}, [{ pointer: "/photos", code: "present" }]],
      [{ photos: "x" }, [{ pointer: "/photos", code: "array" }]],
      [{ photos: Array.from({ length: 101 }, (_, i) => ({ url: `https://example.com/${i}.jpg` })) }, [{ pointer: "/photos", code: "max" }]],
      [{ photos: [{}] }, [{ pointer: "/photos/0/url", code: "required_without" }]],
      [{ photos: [{ url: "https://example.com/a.jpg", key: "upl_0000000000000000" }] }, [{ pointer: "/photos/0/key", code: "prohibits" }]],
      [{ photos: [{ url: "ftp://example.com/a.jpg" }] }, [{ pointer: "/photos/0/url", code: "url" }]],
      [{ photos: [{ url: `https://example.com/${"a".repeat(2040)}` }] }, [{ pointer: "/photos/0/url", code: "max" }]],
      [
        { photos: [{ url: "https://user:pw@example.com/a.jpg" }] },
        [{ pointer: "/photos/0/url", code: "invalid_value", reason: "url_credentials" }],
      ],
      [
        { photos: [{ url: "https://example.com/a.jpg", floor: "99" }] },
        [{ pointer: "/photos/0/floor", code: "invalid_value", reason: "unknown_level" }],
      ],
      [{ photos: [{ url: "https://example.com/a.jpg", rooms: ["kitchen", "  "] }] }, [{ pointer: "/photos/0/rooms/1", code: "min" }]],
      [{ photos: [{ url: "https://example.com/a.jpg", rooms: ["x".repeat(61)] }] }, [{ pointer: "/photos/0/rooms/0", code: "max" }]],
      [
        { photos: [{ url: "https://example.com/a.jpg", rooms: ["Sauna", " Sauna "] }] },
        [{ pointer: "/photos/0/rooms/1", code: "distinct" }],
      ],
      [
        { photos: [{ url: "https://example.com/a.jpg", rooms: ["Sau\u0000na"] }] },
        [{ pointer: "/photos/0/rooms/0", code: "invalid", reason: "control_character" }],
      ],
      // UNSAFE_ALLOW_LOCAL_URLS (set for this file) relaxes loopback alone: plain http elsewhere stays refused.
      [{ photos: [{ url: "http://example.com/photo.jpg" }] }, [{ pointer: "/photos/0/url", code: "url" }]],
      [{ photos: [{ url: "http://93.184.215.14/photo.jpg" }] }, [{ pointer: "/photos/0/url", code: "url" }]],
      [
        { photos: [{ url: "https://example.com/a.jpg", rooms: ["kitchen", "bedroom", "hallway", "balcony"] }] },
        [{ pointer: "/photos/0/rooms", code: "max" }],
      ],
      [
        { photos: [{ url: "https://example.com/a.jpg" }, { url: "https://example.com/a.jpg" }] },
        [{ pointer: "/photos/1/url", code: "distinct" }],
      ],
      [{ photos: [{ key: "not-a-key" }] }, [{ pointer: "/photos/0/key", code: "invalid_value", reason: "unknown_upload" }]],
      [{ photos: [{ url: "https://example.com/a\u0000.jpg" }] }, [{ pointer: "/photos/0/url", code: "url" }]],
      [{ photos: [{ url: "https://example.com/\ud800.jpg" }] }, [{ pointer: "/photos/0/url", code: "url" }]],
      [
        { photos: [{ url: 42, floor: 3, rooms: "kitchen" }] },
        [
          { pointer: "/photos/0/url", code: "string" },
          { pointer: "/photos/0/floor", code: "string" },
          { pointer: "/photos/0/rooms", code: "array" },
        ],
      ],
      [{ photos: [null] }, [{ pointer: "/photos/0", code: "object" }]],
    ];
    for (const [body, errors] of cases) {
      const res = await putPhotos(key, code, body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(res.json!.errors, JSON.stringify(body).slice(0, 200)).toEqual(errors.map((error) => expect.objectContaining(error)));
    }
    const ro = await putPhotos(key, code, { photos: [{ url: "https://example.com/a.jpg", floor: "99" }] }, "?locale=ro");
    expect(ro.json!.errors[0].detail).toBe("Cod de nivel necunoscut; vedeți floor_level în GET /schema.");
    expect(await photoRows(code)).toEqual([]);
  });

  it("takes room labels as free text, not codes: stored as sent (trimmed), a vocabulary code among them", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const rooms = ["living", "  Camera copiilor  ", "kitchen"];
    const res = await putPhotos(key, code, { photos: [{ url: "https://example.com/a.jpg", floor: "ground", rooms }] });
    expect(res.status, res.text).toBe(202);
    expect((await photoRows(code)).map((row) => ({ floor: row.floor, rooms: row.rooms }))).toEqual([
      { floor: "ground", rooms: ["living", "Camera copiilor", "kitchen"] },
    ]);
    expect((await putPhotos(key, code, { photos: [{ url: "https://example.com/a.jpg", rooms: ["x".repeat(60)] }] })).status).toBe(202);
  });

  it("answers another account's upload key like an unknown one, at /photos/N/key, and a key whose file was not sent", async () => {
    const { key } = await accountWithKey();
    const other = await accountWithKey();
    const { code } = await createListing(key);
    const theirs = await uploaded(other.key, await webpPhoto());
    const res = await putPhotos(key, code, { photos: [{ url: "https://example.com/a.jpg" }, { key: theirs }] });
    expect(res).toMatchObject({
      status: 422,
      json: { errors: [{ pointer: "/photos/1/key", code: "invalid_value", reason: "unknown_upload" }] },
    });
    const unknown = await putPhotos(key, code, { photos: [{ key: "upl_0000000000000000" }] });
    expect(unknown.json!.errors[0]).toMatchObject({
      pointer: "/photos/0/key",
      reason: "unknown_upload",
      detail: res.json!.errors[0].detail,
    });
    const grant = await call((await import("@/app/api/v1/uploads/route")).POST, {
      path: "/uploads",
      method: "POST",
      key,
      body: { content_length: 10 },
    });
    const unsent = await putPhotos(key, code, { photos: [{ key: grant.json!.key }] });
    expect(unsent.json!.errors[0]).toMatchObject({ pointer: "/photos/0/key", code: "invalid_value", reason: "upload_not_stored" });
    expect(await photoRows(code)).toEqual([]);
  });

  it("answers another account's listing like a missing one, and needs media:write", async () => {
    const { key } = await accountWithKey();
    const other = await accountWithKey();
    const { code } = await createListing(other.key);
    const body = { photos: [{ url: "https://example.com/a.jpg" }] };
    expect(await putPhotos(key, code, body)).toMatchObject({ status: 404, json: { code: "not_found" } });
    expect(await putPhotos(key, "ZZZZZZZZ", body)).toMatchObject({ status: 404, json: { code: "not_found" } });
    const readOnly = await accountWithKey({ permissions: ["listings:read", "listings:write"] });
    const own = await createListing(readOnly.key);
    expect(await putPhotos(readOnly.key, own.code, body)).toMatchObject({ status: 403, json: { code: "missing_ability" } });
    expect(await photoRows(code)).toEqual([]);
  });

  it("refuses addresses that are not public: literals at once (422), names resolving to them when downloading", async () => {
    setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "0" });
    try {
      const { key, account } = await accountWithKey();
      const { code } = await createListing(key);
      const literals = [
        "https://127.0.0.1/a.jpg",
        "https://10.1.2.3/a.jpg",
        "https://192.168.0.10/a.jpg",
        "https://172.16.5.4/a.jpg",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/a.jpg",
        "https://[::ffff:127.0.0.1]/a.jpg",
        "https://[fd00::1]/a.jpg",
        "https://0x7f000001/a.jpg",
        "https://2130706433/a.jpg",
        "https://0.0.0.0/a.jpg",
        "https://100.64.0.1/a.jpg",
      ];
      for (const url of literals) {
        const res = await putPhotos(key, code, { photos: [{ url }] });
        expect(res.json!.errors, url).toEqual([
          expect.objectContaining({ pointer: "/photos/0/url", code: "invalid_value", reason: "url_not_public" }),
        ]);
      }
      expect((await putPhotos(key, code, { photos: [{ url: at("/photo-a.jpg") }] })).json!.errors[0]).toMatchObject({ code: "url" });

      // A name is checked where the download connects: localhost resolves to a loopback address.
      const named = "https://localhost/a.jpg";
      expect((await putPhotos(key, code, { photos: [{ url: named }] })).status).toBe(202);
      await runPhotoJobs();
      expect((await photoRows(code)).map((row) => row.failureReason)).toEqual(["download_failed"]);
      expect(await mediaFailed(account.id)).toEqual([expect.objectContaining({ reason: "download_failed", urls: [named] })]);
    } finally {
      setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
    }
  });
});
