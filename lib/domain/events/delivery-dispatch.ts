import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";

/** A committed delivery, as a runner that is told about work (Inngest) needs it to start the delivery's run. */
export interface DispatchedDelivery {
  id: string;
  webhookId: string;
}

/**
 * Starts the runs of committed deliveries on a runner that is told about work (Inngest), so a
 * delivery starts at its event's commit there too; the embedded lane needs none (`NOTIFY` wakes it).
 * Registered by whoever knows that runner, so the domain never depends on it.
 */
export interface DeliveryDispatcher {
  dispatch(deliveries: readonly DispatchedDelivery[]): Promise<void>;
}

const registered = processSlot<DeliveryDispatcher>("deliveryDispatcher");

/** Sets (or, with undefined, removes) the process's delivery dispatcher. */
export const registerDeliveryDispatcher = (dispatcher: DeliveryDispatcher | undefined): void => registered.set(dispatcher);

export const deliveryDispatcherRegistered = (): boolean => registered.get() !== undefined;

/**
 * Tells the registered dispatcher about deliveries whose event has committed. A failed dispatch
 * loses nothing: the row is in the table and the delivery sweep sends it within a minute.
 */
export async function dispatchDeliveries(deliveries: readonly DispatchedDelivery[]): Promise<void> {
  const dispatcher = registered.get();
  if (!dispatcher || deliveries.length === 0) return;
  try {
    await dispatcher.dispatch(deliveries);
  } catch (error) {
    logger.warn("webhook deliveries not dispatched; the delivery sweep will send them", { error, count: deliveries.length });
  }
}
