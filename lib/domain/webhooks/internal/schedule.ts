/** The delivery schedule and its bounds (spec: Events, Delivery; Limits). */

/** Waits after failed attempts 1 to 6; the 7th failure is final. */
export const retryDelaysSeconds = [30, 120, 600, 1800, 7200, 21600] as const;
export const maxDeliveryAttempts = retryDelaysSeconds.length + 1;

/** How long a claim holds a delivery: the receiver's 10 seconds and ample margin for writing the outcome. */
export const deliveryLeaseSeconds = 60;

/** Attempts in flight at once per webhook, so that one slow receiver never holds up the others. */
export const maxInFlightPerWebhook = 4;
