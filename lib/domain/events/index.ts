export { listEvents, listEventsQuery, maxWaitSeconds, type EventPage, type ListEventsInput } from "./list-events";
export { endEventWaits, eventWaiters, maxWaitingPerKey } from "./process-waiters";
export { eventsChannel, recordEvent, type NewEvent } from "./record-event";
export {
  eventBodySchema,
  eventId,
  parseEventId,
  eventDataSchemas,
  eventTypes,
  importRefusalSchema,
  importTotalsSchema,
  listingEventData,
  webhookEventBodySchema,
  type EventBody,
  type EventType,
} from "@/lib/domain/event-types";
