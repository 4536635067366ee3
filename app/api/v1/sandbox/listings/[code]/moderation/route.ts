// POST /sandbox/listings/{code}/moderation – simulate a moderator's decision in the sandbox (404 in production)
import { config } from "@/lib/platform/config";
import { notFound } from "@/lib/platform/errors";
import { keyedEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { simulateModeration } from "@/lib/domain/listings/moderate";
import { detailOf } from "@/lib/domain/listings/internal/queries";
import { listingResponse } from "@/lib/platform/http/listing-response";

const simulate = keyedEndpoint<{ code: string }>("listings:write", async ({ ctx, params, body }) => {
  if (config().APP_ENV !== "sandbox") throw notFound();
  const listed = await simulateModeration({ ctx, input: { code: params.code, decision: await body() } });
  return listingResponse(detailOf(listed), []);
});

export const { GET, POST, PUT, PATCH, DELETE } = methods({ POST: simulate });
