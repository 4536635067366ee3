import type { FormTokenBinding } from "@/lib/adapters/portal/csrf";

/**
 * The test-event form's token: bound to the account and the form alone, since the listing is what the
 * holder types or picks in it (the service answers another account's listing like a missing one).
 */
export const sandboxEventToken: FormTokenBinding<unknown> = { purpose: "sandbox-event", subject: () => [] };
