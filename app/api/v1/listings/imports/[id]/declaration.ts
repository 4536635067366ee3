import { z } from "zod";
import { importIdParams, importResultsQuery } from "@/lib/domain/imports/get-import";
import { importSchema } from "@/lib/domain/imports/render";
import { defineRoute } from "@/lib/adapters/http/route";
import { listingsTag } from "../../../parameters";

const importResponseSchema = z.object({ data: importSchema, meta: z.object({ next: z.string().nullable() }) });

export const getListingImportRoute = defineRoute({
  method: "GET",
  path: "/listings/imports/{id}",
  operationId: "getListingImport",
  summary: "A bulk import and its line results",
  description:
    "The import's `status` (`queued`, `running`, then `completed`, `cancelled` or `failed`, with `error_code` saying why it failed), its counts, and a page of its line results in line order: while `meta.next` is not null, request the next page with `after` = `meta.next`. A result's `code` is the listing's; a refused line has the problem code a single call would have answered in `error_code`, its `detail`, and its field errors in `errors` (the items of a 422). Another account's import answers 404.",
  tags: listingsTag,
  permission: "listings:read",
  params: importIdParams,
  query: importResultsQuery,
  responses: {
    200: { description: "The import.", schema: importResponseSchema },
  },
  errors: [404, 422],
});

export const cancelListingImportRoute = defineRoute({
  method: "DELETE",
  path: "/listings/imports/{id}",
  operationId: "cancelListingImport",
  summary: "Cancel a bulk import",
  description:
    "Ends a `queued` or `running` import `cancelled`: no line is applied after the answer, the lines applied before stay applied, and `import.completed` is written with `status: cancelled` and their counts. Answers the import as `GET /listings/imports/{id}` does (the first page of its results). An import that has ended already is 409 `import_ended`; another account's import answers 404.",
  tags: listingsTag,
  permission: "listings:write",
  params: importIdParams,
  responses: {
    200: { description: "Cancelled.", schema: importResponseSchema },
  },
  errors: [404, 409],
});
