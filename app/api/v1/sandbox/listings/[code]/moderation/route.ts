// POST /sandbox/listings/{code}/moderation – simulate a moderator's decision in the sandbox (404 in production)
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { simulateModerationRoute } from "./declaration";
import { config } from "@/lib/base/config";
import { notFound } from "@/lib/base/errors";
import { methods } from "@/lib/adapters/http/methods";
import { simulateModeration } from "@/lib/domain/listings/moderate";
import { listingResponse } from "@/lib/adapters/http/listing-response";

const simulate = endpoint(simulateModerationRoute, async ({ ctx, params, body }) => {
  if (config().APP_ENV !== "sandbox") throw notFound();
  const detail = await simulateModeration({ ctx, input: { code: params.code, decision: await body() } });
  return listingResponse(detail, []);
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(simulate);
