import type { Database } from "@/db";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";
import { eventsChannel } from "./record-event";
import { EventWaiters } from "./waiters";

/** Requests of one API key that may wait for events at once, in one process. */
export const maxWaitingPerKey = 2;

interface ProcessWaiters {
  waiters: EventWaiters;
  /** The database whose `eventsChannel` this process listens to, once LISTEN has been asked for. */
  listening?: { database: Database; ready: Promise<void> };
}

// In the process registry: the route handlers wait and shutdown ends the waits.
const slot = processSlot<ProcessWaiters>("eventWaiters");

const processWaiters = (): ProcessWaiters => slot.getOrMake(() => ({ waiters: new EventWaiters(maxWaitingPerKey) }));

/** The process's waiting requests (the tests look at who waits). */
export const eventWaiters = (): EventWaiters => processWaiters().waiters;

/**
 * The process's waiters, once they listen to `database`'s `eventsChannel`: one LISTEN per process
 * (on PostgreSQL the connection postgres.js keeps for every LISTEN of the process; on PGlite in
 * process), whose notifications, each an account's id, wake that account's waiters. A commit on any
 * instance reaches every instance's listener. Asked again when the process's database is another one
 * (tests reopen it). When LISTEN fails the request still waits, and is answered at its time-out; the
 * next request asks again.
 */
export async function listeningWaiters(database: Database): Promise<EventWaiters> {
  const current = processWaiters();
  let listening = current.listening;
  if (listening?.database !== database) {
    const asked: NonNullable<ProcessWaiters["listening"]> = {
      database,
      ready: database
        .listen(eventsChannel, (accountId) => current.waiters.wake(accountId))
        .then(() => undefined)
        .catch((error: unknown) => {
          logger.warn("GET /events?wait: LISTEN failed; waiting requests are answered at their time-out", { error });
          if (current.listening === asked) current.listening = undefined;
        }),
    };
    current.listening = listening = asked;
  }
  await listening.ready;
  return current.waiters;
}

/** Graceful shutdown: every waiting request answers now (an empty page), and any later one without waiting. */
export function endEventWaits(): void {
  processWaiters().waiters.close();
}
