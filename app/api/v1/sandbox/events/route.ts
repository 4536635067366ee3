// POST /sandbox/events – fire an event of one of the caller's listings as the product would (sandbox only; 404 in production)
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { sandboxOnly } from "@/lib/adapters/http/sandbox-only";
import { triggerSandboxEvent } from "@/lib/domain/listings/trigger-sandbox-event";
import { triggerSandboxEventRoute } from "./declaration";

const trigger = endpoint(triggerSandboxEventRoute, async ({ ctx, body }) => {
  const event = await triggerSandboxEvent({ ctx, input: await body() });
  return json({ data: event }, { status: 202 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = sandboxOnly(methods(trigger));
