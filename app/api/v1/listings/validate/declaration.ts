import { z } from "zod";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { warningSchema } from "@/lib/domain/listings/schemas";
import { listingWriteSchema } from "@/lib/domain/listings/validation";
import { defineRoute } from "@/lib/adapters/http/route";
import { listingsTag } from "../../parameters";

export const validateListingRoute = defineRoute({
  method: "POST",
  path: "/listings/validate",
  operationId: "validateListing",
  summary: "Validate a listing body",
  description: "The same rules as creation; nothing is written.",
  tags: listingsTag,
  permission: "listings:write",
  body: { schema: listingWriteSchema, example: exampleApartment, checkedBy: "validateListing" },
  responses: {
    200: {
      description: "Valid; `warnings[]` lists what would be ignored.",
      schema: z.object({ data: z.object({ valid: z.literal(true) }), warnings: z.array(warningSchema) }),
    },
  },
  errors: [400, 413, 415, 422],
});
