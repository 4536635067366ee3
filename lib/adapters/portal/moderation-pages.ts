import type { FormTokenBinding } from "./csrf";

/** Addresses and form tokens of the moderation desk, shared by its pages and actions. */
export const reviewPath = (code: string) => `/moderation/listings/${encodeURIComponent(code)}`;

/** A decision's form token is bound to the moderator and the listing. */
export const decisionToken: FormTokenBinding<{ code: string }> = { purpose: "moderation-decision", subject: ({ code }) => [code] };

/** Closing a report: bound to the moderator and the report. */
export const reportToken: FormTokenBinding<{ id: string }> = { purpose: "moderation-report", subject: ({ id }) => [id] };
