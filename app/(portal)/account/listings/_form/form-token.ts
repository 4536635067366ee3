import type { FormTokenBinding } from "@/lib/adapters/portal/csrf";

/**
 * The listing form and its photo editor carry a token for the account and the listing ("new" when
 * creating): a post made for another listing or account does nothing.
 */
export const listingFormToken: FormTokenBinding<{ code: string }> = { purpose: "listing-form", subject: ({ code }) => [code || "new"] };
