export { eventId, parseEventId } from "./ids";
export { listEvents, listEventsQuery, maxWaitSeconds, type EventPage, type ListEventsInput } from "./list-events";
export { endEventWaits, eventWaiters, maxWaitingPerKey } from "./process-waiters";
export { eventsChannel, recordEvent, type NewEvent } from "./record-event";
export {
  eventBodySchema,
  eventDataSchemas,
  eventTypes,
  importTotalsSchema,
  listingEventData,
  webhookEventBodySchema,
  type EventBody,
  type EventType,
} from "./types";
