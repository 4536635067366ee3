import { writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/db";
import { codeSamples, guideSource } from "@/lib/adapters/docs/content";
import { processPhotosJob } from "@/lib/adapters/jobs/photo-jobs";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { accountContext } from "@/lib/base/context";
import { locales, type Locale } from "@/lib/base/i18n";
import { listOwnPhotos } from "@/lib/domain/media/list-own-photos";
import { accountWithKey } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import { createListing } from "../support/listings";
import { closedPort } from "../support/local-http-server";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";
import { restoreEnv, setEnv } from "../support/env";

// The photos guide's samples run as an integrator runs them, against the route handlers: two real
// image files uploaded with curl and with the client, the listing read while its photos wait and once
// the photo job has processed them, the list reordered; the media.failed event the guide shows is the
// one a failed download produces.

let bridge: Awaited<ReturnType<typeof startBridge>>;
beforeAll(async () => {
  bridge = await startBridge();
});
afterAll(async () => {
  await bridge.close();
  restoreEnv();
});

/** The JSON blocks the guide shows after a sample, in order. */
function shownAfter(locale: Locale, title: string): unknown[] {
  const blocks = codeSamples(guideSource(locale, "photos"));
  const shown: unknown[] = [];
  for (const block of blocks.slice(blocks.findIndex((one) => one.title === title) + 1)) {
    if (block.lang !== "json") break;
    shown.push(JSON.parse(block.code));
  }
  return shown;
}

async function get(key: string, pathname: string) {
  const response = await inProcessFetch(
    new Request(`http://localhost:3000/api/v1${pathname}`, { headers: { authorization: `Bearer ${key}`, accept: "application/json" } }),
  );
  return (await response.json()) as any;
}

const processPhotos = async () => runDueJobs({ database: await database(), jobs: [processPhotosJob] });

describe.each(locales)("the photos guide's samples (%s)", (locale) => {
  const samples = testedSamples(locale, "photos");
  const sample = (title: string) => {
    const found = samples.get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} photos guide`);
    return found;
  };

  it("has the samples this test runs, and no other", () => {
    expect([...samples.keys()].sort()).toEqual(["read-photos.sh", "reorder-photos.ts", "upload-photos.sh", "upload-photos.ts"]);
  });

  it("uploads two files with curl and with the client, reads the photos while they wait and once processed, reorders them", async () => {
    const { account, key } = await accountWithKey();
    const owner = accountContext(await database(), { accountId: account.id, agency: null }, { locale: "en" });
    const folder = workFolder();
    const front = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 180, g: 120, b: 90 } } })
      .jpeg()
      .toBuffer();
    const plan = await sharp({ create: { width: 900, height: 900, channels: 4, background: { r: 250, g: 250, b: 250, alpha: 1 } } })
      .png()
      .toBuffer();
    await writeFile(path.join(folder, "front.jpg"), front);
    await writeFile(path.join(folder, "plan.png"), plan);
    const shell = (title: string, code: string) =>
      runShell(sample(title), { curlHome: bridge.curlHome, cwd: folder, env: { LISTINGS_API_KEY: key, LISTING_CODE: code } });
    const [shownWaiting, shownProcessed] = shownAfter(locale, "read-photos.sh") as [
      { processing: boolean; images: string[] },
      { processing: boolean; images: string[] },
    ];

    // Direct upload with curl: the cover first, the plan tagged with its level and room.
    const byCurl = (await createListing(key)).code;
    expect(JSON.parse(await shell("upload-photos.sh", byCurl))).toEqual({ queued: 2 });
    const curlPhotos = await listOwnPhotos({ ctx: owner, input: { code: byCurl } });
    expect(curlPhotos.map(({ floor, rooms, state }) => ({ floor, rooms, state }))).toEqual([
      { floor: null, rooms: ["facade"], state: "pending" },
      { floor: "4", rooms: ["floor_plan"], state: "pending" },
    ]);

    // The same with the client: it prints how many were queued, then the keys.
    const byClient = (await createListing(key)).code;
    const uploaded = await runTypeScript(sample("upload-photos.ts"), {
      folder,
      env: {
        LISTINGS_API_KEY: key,
        LISTING_CODE: byClient,
        PHOTOS: [path.join(folder, "front.jpg"), path.join(folder, "plan.png")].join(","),
      },
    });
    expect(uploaded.printed).toHaveLength(2);
    expect(uploaded.printed[0]).toBe("2 photos queued");
    const keys = uploaded.printed[1].split(",");
    expect((await listOwnPhotos({ ctx: owner, input: { code: byClient } })).map((photo) => photo.key)).toEqual(keys);

    // Waiting: processing, no images yet, as the guide shows.
    for (const code of [byCurl, byClient]) expect(JSON.parse(await shell("read-photos.sh", code))).toEqual(shownWaiting);

    // Processed: two 1600 px WebP addresses of the form the guide shows, in the list's order.
    await processPhotos();
    const form = new RegExp(`^${shownProcessed.images[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("…", ".+")}$`);
    const read = async (code: string) => JSON.parse(await shell("read-photos.sh", code)) as { processing: boolean; images: string[] };
    for (const code of [byCurl, byClient]) {
      const processed = await read(code);
      expect(processed.processing).toBe(shownProcessed.processing);
      expect(processed.images).toHaveLength(shownProcessed.images.length);
      for (const image of processed.images) expect(image).toMatch(form);
    }
    expect((await listOwnPhotos({ ctx: owner, input: { code: byCurl } })).map((photo) => photo.state)).toEqual(["done", "done"]);

    // Reordered: nothing processed again, the new order published at once.
    const before = (await read(byClient)).images;
    const reordered = await runTypeScript(sample("reorder-photos.ts"), {
      folder,
      env: { LISTINGS_API_KEY: key, LISTING_CODE: byClient, PHOTO_KEYS: keys.join(",") },
    });
    expect(reordered.printed).toEqual(["0 queued, processing: false, 2 images"]);
    expect((await read(byClient)).images).toEqual([...before].reverse());
  });

  it("the media.failed event it shows is the one an address that cannot be downloaded gives", async () => {
    setEnv({ UNSAFE_ALLOW_LOCAL_URLS: "1" });
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const missing = `http://127.0.0.1:${await closedPort()}/photos/10442/missing.jpg`;
    const response = await inProcessFetch(
      new Request(`http://localhost:3000/api/v1/listings/${code}/photos`, {
        method: "PUT",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ photos: [{ url: missing }] }),
      }),
    );
    expect(response.status).toBe(202);
    await processPhotos();

    const shown = codeSamples(guideSource(locale, "photos"))
      .filter((block) => block.lang === "json")
      .map((block) => JSON.parse(block.code) as { type?: string; data: Record<string, unknown> })
      .find((block) => block.type === "media.failed")!;
    const events = (await get(key, "/events")).data.filter((event: any) => event.type === "media.failed");
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(Object.keys(event).sort()).toEqual(Object.keys(shown).sort());
    expect(Object.keys(event.data).sort()).toEqual(Object.keys(shown.data).sort());
    expect(event.data).toMatchObject({ code, status: shown.data.status, count: 1, reason: shown.data.reason, urls: [missing] });
    expect((await get(key, `/account/listings/${code}`)).data).toMatchObject({ images: [], media: { processing: false } });
  });
});
