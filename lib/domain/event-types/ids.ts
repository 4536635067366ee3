import { idPrefixes } from "@/lib/base/ids";

/**
 * Event ids are the outbox `seq` in base 36, padded so that ids sort like their numbers: an id is
 * its own cursor (`GET /events?after=`). Ten digits reach 36^10 ≈ 3.6e15, below 2^53, so every id
 * the pattern admits parses back to an exact number.
 */
const digits = 10;
const prefix = `${idPrefixes.event}_`;

export const eventIdPattern = new RegExp(`^${prefix}[0-9a-z]{${digits}}$`);

export function eventId(seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 0 || seq >= 36 ** digits) throw new RangeError(`event seq ${seq} has no id`);
  return prefix + seq.toString(36).padStart(digits, "0");
}

/** The `seq` of an id matching `eventIdPattern`; callers validate the id first (it is client input). */
export function parseEventId(id: string): number {
  if (!eventIdPattern.test(id)) throw new RangeError(`"${id}" is not an event id`);
  return parseInt(id.slice(prefix.length), 36);
}
