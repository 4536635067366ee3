import type { FormTokenBinding } from "@/lib/adapters/portal/csrf";

/** A row's forms carry a token for that listing and account: a post made for another does nothing. */
export const rowTokenBinding: FormTokenBinding<{ code: string }> = { purpose: "my-listings", subject: ({ code }) => [code] };
