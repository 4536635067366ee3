import { POST as createRoute } from "@/app/api/v1/listings/route";
import { moderateListing, type ModerationDecision } from "@/lib/listings/moderation";
import { call, operatorCtx } from "./fixtures";

/** A complete, valid apartment for sale (every field an apartment requires). */
export function validApartment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "apartment",
    transaction: "sale",
    title: "Apartament 3 camere Floreasca",
    description: "Apartament luminos cu trei camere, renovat recent, aproape de parc și de metrou.",
    city: "București",
    county: "București",
    street: "Strada Barbu Văcărescu",
    street_number: "12",
    latitude: 44.4612,
    longitude: 26.1003,
    rooms: 3,
    bedrooms: 2,
    floor: "4",
    total_floors: 8,
    usable_area_sqm: 78.5,
    partitioning: "detached",
    price: 185000,
    price_currency: "EUR",
    ...overrides,
  };
}

export async function createListing(key: string, body: Record<string, unknown> = validApartment()) {
  const res = await call(createRoute, { path: "/listings", method: "POST", key, body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json!.data as { code: string; etag: string; status: string; [name: string]: unknown };
}

export async function moderate(code: string, decision: ModerationDecision) {
  return moderateListing({ ctx: await operatorCtx(), input: { code, owner: null, decision } });
}

/** A listing that moderation approved: `active`. */
export async function activeListing(key: string, body?: Record<string, unknown>) {
  const listing = await createListing(key, body);
  await moderate(listing.code, { decision: "approve" });
  return listing;
}
