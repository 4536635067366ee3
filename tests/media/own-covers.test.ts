import { describe, expect, it } from "vitest";
import * as photosRoute from "@/app/api/v1/listings/[code]/photos/route";
import { database } from "@/db";
import { listCoverPhotos } from "@/lib/domain/media/list-public-photos";
import { listOwnCoverPhotos } from "@/lib/domain/media/list-own-cover-photos";
import { publicContext } from "@/lib/base/context";
import { processPhotosJob } from "@/lib/adapters/jobs/photo-jobs";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { newId } from "@/lib/base/ids";
import { signedIn } from "../portal-services/support";
import { accountWithKey, call } from "../support/fixtures";
import { createListing } from "../support/listings";
import { jpegPhoto, pngPhoto } from "./images";
import { uploaded, useStorage } from "./support";

describe("listOwnCoverPhotos (My listings' covers)", () => {
  useStorage("local");

  it("gives the owner and the agency's owner the first processed photo of a listing in any state; the public and a stranger none", async () => {
    const agency = `Agency ${newId("agency")}`;
    const agent = await accountWithKey({ account: { agency, role: "agent" } });
    const owner = await accountWithKey({ account: { agency, role: "owner" } });
    const stranger = await accountWithKey();
    const listing = await createListing(agent.key);
    const first = await uploaded(agent.key, await jpegPhoto({ width: 900, height: 600 }));
    const second = await uploaded(agent.key, await pngPhoto());
    const put = await call(photosRoute.PUT, {
      path: `/listings/${listing.code}/photos`,
      method: "PUT",
      key: agent.key,
      params: { code: listing.code },
      body: { photos: [{ key: first }, { key: second }] },
    });
    expect(put.status).toBe(202);
    await runDueJobs({ database: await database(), jobs: [processPhotosJob] });

    const codes = [listing.code];
    const own = await listOwnCoverPhotos({ ctx: await signedIn(agent.account), input: { codes } });
    const cover = own.get(listing.code);
    expect(cover).toMatchObject({
      webp400: { url: expect.any(String), width: 400 },
      placeholder: expect.stringMatching(/^data:image\/png/),
    });
    expect(cover!.webp400.height).toBe(267);
    expect((await listOwnCoverPhotos({ ctx: await signedIn(owner.account), input: { codes } })).get(listing.code)).toEqual(cover);
    expect(await listOwnCoverPhotos({ ctx: await signedIn(stranger.account), input: { codes } })).toEqual(new Map());
    // Still pending: not public, so the catalog shows no cover of it.
    expect(await listCoverPhotos({ ctx: publicContext(await database()), input: { codes } })).toEqual(new Map());
  });
});
