import { and, asc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import { events } from "@/db/schema";
import type { ServiceContext } from "@/lib/base/context";
import { eventIdPattern, parseEventId } from "./ids";
import { eventBody, type EventBody } from "./types";

/** Query of `GET /events`. */
export const listEventsQuery = z.object({
  after: z.string().regex(eventIdPattern).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export type ListEventsInput = z.output<typeof listEventsQuery> & { accountId: string };

export interface EventPage {
  data: EventBody[];
  meta: { next: string | null };
}

/**
 * One page of the account's events, oldest first. `after` is a position, not a lookup: any event id
 * works (one deleted by retention, another account's), and only this account's events are listed.
 */
export async function listEvents({ ctx, input }: { ctx: ServiceContext; input: ListEventsInput }): Promise<EventPage> {
  const afterSeq = input.after === undefined ? 0 : parseEventId(input.after);
  const rows = await ctx.db
    .select()
    .from(events)
    .where(and(eq(events.accountId, input.accountId), gt(events.seq, afterSeq)))
    .orderBy(asc(events.seq))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit).map(eventBody);
  return { data: page, meta: { next: rows.length > input.limit ? page[page.length - 1].id : null } };
}
