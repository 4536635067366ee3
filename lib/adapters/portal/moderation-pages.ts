/** Addresses and form-token purposes of the moderation desk, shared by its pages and actions. */
export const reviewPath = (code: string) => `/moderation/listings/${encodeURIComponent(code)}`;

/** A decision's form token is bound to the moderator and the listing (`formToken` in csrf.ts). */
export const decisionPurpose = "moderation-decision";

/** Closing a report: bound to the moderator and the report. */
export const reportPurpose = "moderation-report";
