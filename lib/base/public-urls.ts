import { config } from "@/lib/base/config";

/**
 * A listing's public page, `{portal origin}/listings/{code}` (app/listings/[code]/page.tsx): the `url` of the
 * API's listing shapes and of every listing event.
 */
export const listingUrl = (code: string): string => `${config().APP_URL}/listings/${code}`;
