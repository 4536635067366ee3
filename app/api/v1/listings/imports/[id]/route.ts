// GET /listings/imports/{id} – an import's counts and a page of its line results
import { endpoint } from "@/lib/adapters/http/declared-endpoint";
import { getListingImportRoute } from "./declaration";
import { methods } from "@/lib/adapters/http/methods";
import { json } from "@/lib/adapters/http/respond";
import { getImport } from "@/lib/domain/imports/get-import";
import { renderImport } from "@/lib/domain/imports/render";

const get = endpoint(getListingImportRoute, async ({ ctx, params, query, locale }) => {
  return json(renderImport(await getImport({ ctx, input: { id: params.id, ...query } }), locale));
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods(get);
