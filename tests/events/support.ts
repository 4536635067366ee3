import { database } from "@/db";
import { eventTypes, recordEvent, type EventBody } from "@/lib/domain/events";

/** Records `count` events for the account, each in its own transaction like real state changes. */
export async function recordEvents(accountId: string, count: number, now = new Date()): Promise<EventBody[]> {
  const { connection: db } = await database();
  const recorded: EventBody[] = [];
  for (let i = 0; i < count; i++) {
    const event = await db.transaction((tx) => recordEvent(tx, { accountId, type: eventTypes.paused, data: { n: i }, now }));
    if (!event) throw new Error(`account ${accountId} has no key: no event recorded`);
    recorded.push(event);
  }
  return recorded;
}
