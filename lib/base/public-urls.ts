import { config } from "@/lib/base/config";

/** A listing's public page within the portal (app/listings/[code]/page.tsx), for the portal's own links. */
export const listingPath = (code: string): string => `/listings/${code}`;

/**
 * A listing's public page, `{portal origin}/listings/{code}`: the `url` of the API's listing shapes
 * and of every listing event.
 */
export const listingUrl = (code: string): string => `${config().APP_URL}${listingPath(code)}`;
