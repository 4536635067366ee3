import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { actorLabel, type ServiceContext } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { sharedWaitingPlaces } from "@/lib/infra/rate-limit";
import { listeningWaiters, maxWaitingPerKey } from "./process-waiters";
import { eventBody, eventIdPattern, parseEventId, type EventBody } from "@/lib/domain/event-types";

/** The longest `wait` of `GET /events`, in seconds. */
export const maxWaitSeconds = 30;

/** Query of `GET /events`. */
export const listEventsQuery = z.object({
  after: z.string().regex(eventIdPattern).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  wait: z.coerce
    .number()
    .int()
    .min(1)
    .max(maxWaitSeconds)
    .optional()
    .meta({
      description:
        `Long polling: seconds (1–${maxWaitSeconds}) to wait when no event is newer than \`after\`. The answer comes as soon as one ` +
        "is committed, by this server or another instance (each instance listens to PostgreSQL `NOTIFY`), with the events " +
        "then newer than `after`, paged as without `wait`; after `wait` seconds without one, or when the server shuts down, " +
        "it is the empty page (`meta.next` null): ask again with the same `after`. When events are there already the " +
        "answer comes at once, as without `wait`. " +
        `At most ${maxWaitingPerKey} requests of a key wait at once (across instances where they share Upstash Redis, as the rate limits do; per instance otherwise): a third is 429 ` +
        "`too_many_waiting_requests`, with `Retry-After` the seconds until one of them ends at the latest. A waiting " +
        "request counts once against the rate limit.",
    }),
});

export type ListEventsInput = z.output<typeof listEventsQuery> & { accountId: string };

export interface EventPage {
  data: EventBody[];
  meta: { next: string | null };
}

/**
 * One page of the account's events, oldest first. `after` is a position, not a lookup: any event id
 * works (one deleted by retention, another account's), and only this account's events are listed.
 *
 * With `wait`, a page without events is not the answer yet: the request waits for a commit of an
 * event of the account (`waitForPage`).
 */
export async function listEvents({ ctx, input }: { ctx: ServiceContext; input: ListEventsInput }): Promise<EventPage> {
  const { wait, ...page } = input;
  return wait === undefined ? readPage(ctx, page) : waitForPage(ctx, page, wait);
}

type PageInput = Omit<ListEventsInput, "wait">;

interface EventRow {
  seq: number | string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date | string;
}

/**
 * The account's events after `after` in `seq` order, through the SQL function `events_after` (migration
 * 0020): it holds the statement with a generic plan, so the partitions are not planned on every read.
 */
async function readPage(ctx: ServiceContext, input: PageInput): Promise<EventPage> {
  const afterSeq = input.after === undefined ? 0 : parseEventId(input.after);
  const rows = await ctx.database.rows<EventRow>(
    sql`select seq, type, data, created_at from events_after(${input.accountId}, ${afterSeq}::bigint, ${input.limit + 1}::integer)`,
    ctx.db,
  );
  const page = rows
    .slice(0, input.limit)
    .map((row) => eventBody({ seq: Number(row.seq), type: row.type, data: row.data, createdAt: new Date(row.created_at) }));
  return { data: page, meta: { next: rows.length > input.limit ? page[page.length - 1].id : null } };
}

/**
 * Long polling. The request watches the account first, then reads: an event committed after that
 * wakes it even when the read missed it. When the read finds nothing, the request holds one of its
 * key's waiting places (or is refused with 429) and waits in memory, holding no database connection
 * (each read takes one from the pool and gives it back). Each wake is one read with the same query:
 * the answer when it finds events; otherwise (a commit the first read already saw) it waits on. At
 * the deadline, or when the process shuts down, the answer is the empty page without another read.
 *
 * The places are counted in the process and, where instances share Upstash Redis, across all of them
 * (`sharedWaitingPlaces`), so a key's limit holds however many instances its requests reach. A client
 * that goes away (`ctx.signal` aborted) gives both back at once and the request stops waiting: held
 * to its deadline, the place would refuse the key's next requests with 429 for up to `maxWaitSeconds`.
 */
async function waitForPage(ctx: ServiceContext, input: PageInput, waitSeconds: number): Promise<EventPage> {
  const waiters = await listeningWaiters(ctx.database);
  const waiter = waiters.watch(input.accountId);
  const caller = actorLabel(ctx.actor);
  const shared = sharedWaitingPlaces();
  const holder = randomUUID();
  let sharedHeld = false;
  const leave = () => waiter.leave();
  ctx.signal?.addEventListener("abort", leave, { once: true });
  try {
    const first = await readPage(ctx, input);
    if (first.data.length > 0 || ctx.signal?.aborted) return first;
    const deadline = Date.now() + waitSeconds * 1000;
    let refusedUntil: number | null = null;
    if (!waiter.hold(caller, deadline)) refusedUntil = Date.now() + waiters.secondsUntilFree(caller) * 1000;
    else if (shared) {
      refusedUntil = await shared.take({ caller, holder, limit: maxWaitingPerKey, deadline, now: Date.now() });
      sharedHeld = refusedUntil === null;
    }
    if (refusedUntil !== null) {
      const retryAfter = Math.max(1, Math.ceil((refusedUntil - Date.now()) / 1000));
      throw new AppError(
        "too_many_waiting_requests",
        { limit: maxWaitingPerKey, retry_after: retryAfter },
        {},
        { "Retry-After": String(retryAfter) },
      );
    }
    for (;;) {
      const end = await waiter.next();
      if (end !== "woken") return first;
      const page = await readPage(ctx, input);
      if (page.data.length > 0) return page;
    }
  } finally {
    ctx.signal?.removeEventListener("abort", leave);
    waiter.leave();
    if (sharedHeld) void shared?.give({ caller, holder });
  }
}
