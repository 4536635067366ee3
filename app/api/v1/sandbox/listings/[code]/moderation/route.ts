// POST /sandbox/listings/{code}/moderation – simulate a moderator's decision in the sandbox (404 in production)
import { config } from "@/lib/config";
import { notFound } from "@/lib/errors";
import { keyedEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { moderateListing } from "@/lib/listings/moderation";
import { detailOf } from "@/lib/listings/queries";
import { listingResponse, ownerOf } from "@/lib/listings/respond";

const simulate = keyedEndpoint<{ code: string }>("listings:write", async ({ ctx, principal, params, body }) => {
  if (config().APP_ENV !== "sandbox") throw notFound();
  const listed = await moderateListing({ ctx, input: { code: params.code, owner: ownerOf(principal), decision: await body() } });
  return listingResponse(detailOf(listed), []);
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: simulate });
