import { moderationDecision } from "@/lib/domain/listings/moderate";
import { listingEnvelopeSchema } from "@/lib/domain/listings/schemas";
import { defineRoute } from "@/lib/adapters/http/route";
import { codeParams, etagHeader } from "../../../../parameters";

export const simulateModerationRoute = defineRoute({
  method: "POST",
  path: "/sandbox/listings/{code}/moderation",
  operationId: "simulateModeration",
  summary: "Simulate moderation (sandbox only)",
  description:
    "Same effects and events as real moderation: `approve` publishes a pending listing or applies a waiting edit; `reject` (any state) discards a waiting edit; `hide` (any state). 404 in production.",
  tags: ["Sandbox"],
  permission: "listings:write",
  params: codeParams,
  body: { schema: moderationDecision, example: { decision: "approve" } },
  responses: { 200: { description: "The listing after the decision.", schema: listingEnvelopeSchema, headers: etagHeader } },
  errors: [404, 409, 422],
});
