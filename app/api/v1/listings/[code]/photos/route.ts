// PUT /listings/{code}/photos – set the listing's complete ordered photo list (processed in the background)
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { setListingPhotosRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { setListingPhotos } from "@/lib/domain/media/set-photos";

const setPhotos = endpoint(setListingPhotosRoute, async ({ ctx, params, body }) => {
  const { queued } = await setListingPhotos({ ctx, input: { code: params.code, body: await body() } });
  return json({ queued }, { status: 202 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(setPhotos);
