import { sitePath } from "@/lib/base/site-path";

/** Where a signed-in holder starts when there is no page to return to. */
export const portalStart = "/settings/api/keys";

/** A path on this site to return to after signing in (`?next=`), or the portal's start. */
export const safeReturnPath = (value: unknown): string => sitePath(value, portalStart);
