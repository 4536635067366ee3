import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { listOwnPhotos } from "@/lib/domain/media/list-own-photos";
import { setListingPhotos } from "@/lib/domain/media/set-photos";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { processPhotosJob } from "@/lib/adapters/jobs/photo-jobs";
import { appErrorCode, signedIn } from "../portal-services/support";
import { accountWithKey } from "../support/fixtures";
import { createListing } from "../support/listings";
import { jpegPhoto } from "./images";
import { uploaded, useStorage } from "./support";

/**
 * The owner's photo list (the listing page's photo editor): order, tags, the processing state of
 * each photo and the reason of a failure; another account's listing is not found.
 */
describe("listOwnPhotos", () => {
  useStorage("local");

  it("lists the owner's photos in order with their tags, then processed or failed with the reason", async () => {
    const { key, account } = await accountWithKey();
    const owner = await signedIn(account);
    const { code } = await createListing(key);
    const first = await uploaded(key, await jpegPhoto({ width: 800, height: 600 }));
    const broken = await uploaded(key, Buffer.from("<html>not a photo</html>"));
    await setListingPhotos({
      ctx: owner,
      input: {
        code,
        body: {
          photos: [
            { key: broken, rooms: ["kitchen", " Camera copiilor "] },
            { key: first, floor: "ground", rooms: ["living_room"] },
          ],
        },
      },
    });
    expect(await listOwnPhotos({ ctx: owner, input: { code } })).toEqual([
      {
        url: null,
        key: broken,
        floor: null,
        rooms: ["kitchen", "Camera copiilor"],
        state: "pending",
        failureReason: null,
        thumbnail: null,
      },
      { url: null, key: first, floor: "ground", rooms: ["living_room"], state: "pending", failureReason: null, thumbnail: null },
    ]);

    await runDueJobs({ database: await database(), jobs: [processPhotosJob] });
    const [failed, done] = await listOwnPhotos({ ctx: owner, input: { code } });
    expect(failed).toMatchObject({ key: broken, state: "failed", failureReason: "unprocessable", thumbnail: null });
    expect(done).toMatchObject({ key: first, state: "done", failureReason: null, thumbnail: expect.stringMatching(/\.webp$/) });

    // Reordered by the owner: the same photos, no new processing.
    await setListingPhotos({ ctx: owner, input: { code, body: { photos: [{ key: first, floor: "ground", rooms: ["living_room"] }] } } });
    expect((await listOwnPhotos({ ctx: owner, input: { code } })).map((photo) => [photo.key, photo.state])).toEqual([[first, "done"]]);
  });

  it("answers another account's listing as not found", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const stranger = await signedIn((await accountWithKey()).account);
    expect(await appErrorCode(listOwnPhotos({ ctx: stranger, input: { code } }))).toBe("not_found");
    expect(await appErrorCode(listOwnPhotos({ ctx: stranger, input: { code: "not-a-code" } }))).toBe("not_found");
  });
});
