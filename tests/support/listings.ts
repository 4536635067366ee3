import { POST as createRoute } from "@/app/api/v1/listings/route";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { moderateListing, type ModerationDecision } from "@/lib/domain/listings/moderate";
import { call, operatorCtx } from "./fixtures";

/** A complete, valid apartment for sale (every field an apartment requires), with changes. */
export function validApartment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...exampleApartment, ...overrides };
}

export async function createListing(key: string, body: Record<string, unknown> = validApartment()) {
  const res = await call(createRoute, { path: "/listings", method: "POST", key, body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.json!.data as { code: string; etag: string; status: string; [name: string]: unknown };
}

export async function moderate(code: string, decision: ModerationDecision) {
  return moderateListing({ ctx: await operatorCtx(), input: { code, decision } });
}

/** A listing that moderation approved: `active`. */
export async function activeListing(key: string, body?: Record<string, unknown>) {
  const listing = await createListing(key, body);
  await moderate(listing.code, { decision: "approve" });
  return listing;
}
