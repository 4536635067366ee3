/** The delivery schedule and its bounds (docs/webhooks.md, Webhooks). */

/** Waits after failed attempts 1 to 6; the 7th failure is final. */
export const retryDelaysSeconds = [30, 120, 600, 1800, 7200, 21600] as const;
export const maxDeliveryAttempts = retryDelaysSeconds.length + 1;

/**
 * How long a claim holds a delivery: a wait for a free slot when it was claimed ahead (up to three
 * receivers' 10 seconds before it; one that has waited half the lease is given back instead of
 * started), the receiver's 10 seconds, and margin for writing the outcome.
 */
export const deliveryLeaseSeconds = 60;

/** Requests in flight at once per webhook and process, so that one slow receiver never holds up the others. */
export const maxInFlightPerWebhook = 4;

/**
 * Deliveries claimed at once per webhook by the embedded runner: three claimed ahead for each request
 * in flight, so a slot goes on to its next request the moment a receiver answers, while the answer's
 * outcome is being written. One ahead was not enough: the write of a batch's outcomes (which hands
 * each ended attempt's place on) takes longer than a request on a busy machine, and the slots waited
 * for it; more ahead make larger batches, which the write takes with less time per delivery
 * (docs/benchmarks.md, Webhook delivery). Across instances it also bounds the requests in
 * flight per webhook.
 */
export const maxClaimedPerWebhook = 4 * maxInFlightPerWebhook;
