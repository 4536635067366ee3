import { deliveryStatuses } from "@/lib/domain/webhooks/list-deliveries";
import type { DeliveryView } from "@/lib/domain/webhooks/delivery-view";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { givenCursor, pageHref } from "./paging";

/** What the webhook pages do besides calling services: read the log's query, word a delivery's outcome. */

export const webhooksPath = "/settings/api/webhooks";
export const deliveryLogPath = (webhookId: string) => `${webhooksPath}/${webhookId}`;
export const deliveryPath = (webhookId: string, deliveryId: string) => `${deliveryLogPath(webhookId)}/deliveries/${deliveryId}`;

type SearchParams = Readonly<Record<string, string | string[] | undefined>>;
type DeliveryStatus = (typeof deliveryStatuses)[number];

const first = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? "") : (value ?? "")).trim();

/** `?status=failed&cursor=…`: an unknown status means every status; a cursor that is not cursor text is dropped. */
export function parseDeliveryLogQuery(params: SearchParams): { status?: DeliveryStatus; cursor?: string } {
  const status = first(params.status);
  return {
    status: (deliveryStatuses as readonly string[]).includes(status) ? (status as DeliveryStatus) : undefined,
    cursor: givenCursor(params).cursor,
  };
}

export const deliveryLogHref = (webhookId: string, query: { status?: string; cursor?: string }): string =>
  pageHref(deliveryLogPath(webhookId), { status: query.status }, query.cursor);

export const deliveryTone = (status: DeliveryStatus): "ok" | "bad" | "warn" | "neutral" =>
  status === "succeeded" ? "ok" : status === "failed" ? "bad" : status === "pending" ? "warn" : "neutral";

/** Why the last attempt failed, in the page's language; null when it did not. */
export function deliveryErrorText(delivery: Pick<DeliveryView, "last_error">, t: PageMessages["webhooks"]): string | null {
  if (!delivery.last_error) return null;
  return t.errors[delivery.last_error as keyof typeof t.errors] ?? delivery.last_error;
}

const hourMs = 60 * 60 * 1000;

/** The periods the failed deliveries of a log are resent from, the longest the log keeps (30 days) last. */
export const resendPeriodHours = { hour: 1, sixHours: 6, day: 24, threeDays: 72, week: 168, month: 720 } as const;

/** Each period with the instant it starts at `now`: the form offers the instants, dated as every date of the portal. */
export const resendPeriods = (now: Date): { id: keyof typeof resendPeriodHours; since: Date }[] =>
  (Object.entries(resendPeriodHours) as [keyof typeof resendPeriodHours, number][]).map(([id, hours]) => ({
    id,
    since: new Date(now.getTime() - hours * hourMs),
  }));
