import { z } from "zod";
import { listingCodePattern } from "@/lib/domain/listings/codes";

/** Parts several route declarations share (see lib/adapters/http/route.ts). */

export const codeParams = z.object({
  code: z.string().regex(listingCodePattern).meta({ description: "Public code of the listing: 8 characters." }),
});

export const refParams = z.object({
  // One pattern with the bound inside, so a ref too long is `regex` like any other malformed one.
  ref: z
    .string()
    .regex(/^[A-Za-z0-9._:/-]{1,100}$/)
    .meta({ description: "The integrator's own id (`external_ref`): 1–100 letters, digits, `.` `_` `:` `/` `-`." }),
});

export const ifMatchHeaders = z.object({
  "if-match": z.string().optional().meta({
    description: "The `etag` last read; 412 when the listing changed since. `*`, lists and unquoted tags accepted; weak tags never match.",
  }),
});

export const etagHeader = { ETag: { description: "Version of the listing.", schema: { type: "string" as const } } };

export const listingsTag = ["Listings"] as const;

export const stateNote = `Transitions: \`pause\` works from \`active\` only (409 \`listing_action_refused\` otherwise; pausing a paused listing answers 200 and changes nothing); \`sold\` from \`active\` or \`paused\` (sold again: 200, nothing changes); \`resume\` from \`paused\` only, 404 otherwise. Listings in \`sold\` or \`hidden\` cannot be edited (409).`;
