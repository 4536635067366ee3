import { z } from "zod";
import { importIdParams, importResultsQuery } from "@/lib/domain/imports/get-import";
import { importSchema } from "@/lib/domain/imports/render";
import { defineRoute } from "@/lib/adapters/http/route";
import { listingsTag } from "../../../parameters";

export const getListingImportRoute = defineRoute({
  method: "GET",
  path: "/listings/imports/{id}",
  operationId: "getListingImport",
  summary: "A bulk import and its line results",
  description:
    "The import's `status` (`queued`, `running`, `completed`), its counts, and a page of its line results in line order: while `meta.next` is not null, request the next page with `after` = `meta.next`. A result's `code` is the listing's; a refused line has the problem code a single call would have answered in `error_code`, its `detail`, and its field errors in `errors` (the items of a 422). Another account's import answers 404.",
  tags: listingsTag,
  permission: "listings:read",
  params: importIdParams,
  query: importResultsQuery,
  responses: {
    200: {
      description: "The import.",
      schema: z.object({ data: importSchema, meta: z.object({ next: z.string().nullable() }) }),
    },
  },
  errors: [404, 422],
});
