export { eventId, parseEventId } from "./ids";
export { listEvents, listEventsQuery, type EventPage, type ListEventsInput } from "./list-events";
export { recordEvent, type NewEvent } from "./record-event";
export {
  eventBodySchema,
  eventDataSchemas,
  eventTypes,
  listingEventData,
  webhookEventBodySchema,
  type EventBody,
  type EventType,
} from "./types";
