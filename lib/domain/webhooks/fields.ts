import { z } from "zod";
import { eventTypes, type EventType } from "@/lib/domain/event-types";
import { ValidationError, type FieldIssue } from "@/lib/base/errors";
import { checkPublicUrl, MAX_URL_LENGTH, type UrlRefusal } from "@/lib/infra/net/public-address";

/** At most this many webhooks per account (docs/webhooks.md, Webhooks); an integrator app's webhook counts in its owner's five. */
export const maxWebhooksPerAccount = 5;

/** What a webhook may subscribe to: every event type but `webhook.test`, which only the test button sends. */
export const subscribableEventTypes = Object.values(eventTypes).filter(
  (type): type is Exclude<EventType, typeof eventTypes.webhookTest> => type !== eventTypes.webhookTest,
) as [Exclude<EventType, "webhook.test">, ...Exclude<EventType, "webhook.test">[]];

export const webhookFieldsInput = z.object({
  url: z.string().trim().min(1).max(MAX_URL_LENGTH),
  events: z
    .array(z.enum(subscribableEventTypes))
    .min(1)
    .max(subscribableEventTypes.length)
    .transform((types) => [...new Set(types)]),
});

export type WebhookFields = z.output<typeof webhookFieldsInput>;

const issueOf: Record<UrlRefusal, FieldIssue> = {
  not_a_url: { code: "url", params: { scheme: "https" } },
  scheme_not_allowed: { code: "url", params: { scheme: "https" } },
  too_long: { code: "max", params: { max: MAX_URL_LENGTH, unit: "characters" } },
  credentials_in_url: { code: "invalid_value", params: { reason: "url_credentials" } },
  private_address: { code: "invalid_value", params: { reason: "url_not_public" } },
  unresolvable: { code: "invalid_value", params: { reason: "url_unresolvable" } },
};

/**
 * The address as it will be called: `https://` on a public host (the SSRF check, here at creation;
 * the sender checks the address it connects to at every attempt). Called before the transaction
 * opens: resolving a name may take a while.
 */
export async function publicWebhookUrl(url: string, pointer = "/url"): Promise<string> {
  const checked = await checkPublicUrl(url, { schemes: ["https"] });
  if (!checked.ok) throw new ValidationError([{ pointer, ...issueOf[checked.reason] }]);
  return checked.url.href;
}
