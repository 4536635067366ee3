import { z } from "zod";
import { photoListSchema } from "@/lib/domain/media/photo-list";
import { defineRoute } from "@/lib/adapters/http/route";
import { codeParams } from "../../../parameters";

export const setListingPhotosRoute = defineRoute({
  method: "PUT",
  path: "/listings/{code}/photos",
  operationId: "setListingPhotos",
  summary: "Set the listing's photos",
  description: [
    "The complete ordered list (the first photo is the cover); photos of the listing missing from it are deleted. A photo is known by its `url` or `key`: one already processed keeps its derivatives and is not processed again (a reorder costs nothing and is published at once); a failed one is tried again.",
    "Processing runs in the background: `media.processing` is true until the list is done, then `images` holds the processed photos in the list's order. Photos that fail are left out and reported by `media.failed` events (`reason`: `download_failed` with `urls`, `unprocessable` (not JPEG, PNG or WebP bytes, or a file that does not decode), `too_large`, `too_many_pixels`, `upload_missing`). Lists sent in quick succession end in the last list's order.",
    "URLs: `https`, at most 2048 characters, public hosts only (checked again on the address each download connects to), redirects followed up to 3 times to public hosts; files are JPEG, PNG or WebP by their bytes, at most 20 MiB and 100 megapixels. Keys: the caller's own, their files sent; another account's key is answered like an unknown one (422 `invalid_value` at `/photos/N/key`).",
  ].join("\n\n"),
  tags: ["Photos"],
  permission: "media:write",
  params: codeParams,
  body: {
    schema: photoListSchema,
    example: { photos: [{ url: "https://photos.example.com/listing-42/living.jpg", floor: "2", rooms: ["living_room"] }] },
    checkedBy: "readPhotoList",
  },
  responses: {
    202: {
      description: "Accepted; the photos are processed in the background.",
      schema: z
        .object({
          queued: z
            .number()
            .int()
            .min(0)
            .meta({ description: "How many photos entered processing (new ones and failed ones tried again)." }),
        })
        .meta({ id: "PhotosQueued" }),
    },
  },
  errors: [404, 409, 422],
});
