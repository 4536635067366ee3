import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { cancelListingImportRoute, getListingImportRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { cancelImport } from "@/lib/domain/imports/cancel-import";
import { getImport } from "@/lib/domain/imports/get-import";
import { renderImport } from "@/lib/domain/imports/render";

// GET /listings/imports/{id} – an import's counts and a page of its line results
const get = endpoint(getListingImportRoute, async ({ ctx, params, query, locale }) => {
  return json(renderImport(await getImport({ ctx, input: { id: params.id, ...query } }), locale));
});

// DELETE /listings/imports/{id} – cancel a queued or running import; 200 with the import
const cancel = endpoint(cancelListingImportRoute, async ({ ctx, params, locale }) => {
  return json(renderImport(await cancelImport({ ctx, input: { id: params.id } }), locale));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(get, cancel);
