import { z } from "zod";
import { searchGuides } from "@/lib/adapters/docs/search";
import type { RouteDeclaration } from "@/lib/adapters/http/route";
import type { McpTool, ToolArguments } from "@/lib/adapters/mcp/tools";
import { config } from "@/lib/base/config";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { GET as accountListing } from "../v1/account/listings/[code]/route";
import { accountListingRoute } from "../v1/account/listings/[code]/declaration";
import { GET as accountListings } from "../v1/account/listings/route";
import { accountListingsRoute } from "../v1/account/listings/declaration";
import { GET as events } from "../v1/events/route";
import { eventsRoute } from "../v1/events/declaration";
import { POST as pause } from "../v1/listings/[code]/pause/route";
import { PUT as setPhotos } from "../v1/listings/[code]/photos/route";
import { setListingPhotosRoute } from "../v1/listings/[code]/photos/declaration";
import { POST as resume } from "../v1/listings/[code]/resume/route";
import { POST as sold } from "../v1/listings/[code]/sold/route";
import { GET as listingImport } from "../v1/listings/imports/[id]/route";
import { getListingImportRoute } from "../v1/listings/imports/[id]/declaration";
import { PUT as upsertByRef } from "../v1/listings/ref/[ref]/route";
import { upsertListingByRefRoute } from "../v1/listings/ref/[ref]/declaration";
import { POST as validate } from "../v1/listings/validate/route";
import { validateListingRoute } from "../v1/listings/validate/declaration";
import { codeParams, refParams } from "../v1/parameters";
import { GET as vocabulary } from "../v1/schema/route";

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const stateActions = { pause, resume, sold } as const;
const stateAction = z.enum(["pause", "resume", "sold"]);

const docsQuery = z.object({ query: z.string().trim().min(2).max(200).meta({ description: "Words to find in the guides." }) });

/** A part of an operation's declaration that a tool's arguments are made of; missing, the tool table is wrong, which start-up shows. */
function declared(declaration: RouteDeclaration, part: "params" | "query"): z.ZodObject {
  const schema = declaration[part];
  if (!schema) throw new Error(`${declaration.operationId} declares no ${part}`);
  return schema;
}

function declaredBody(declaration: RouteDeclaration): z.ZodType {
  if (!declaration.body) throw new Error(`${declaration.operationId} declares no body`);
  return declaration.body.schema;
}

/** The query's members the arguments carry, by the declaration's names. */
const pick = (args: ToolArguments, schema: z.ZodObject) => Object.fromEntries(Object.keys(schema.shape).map((name) => [name, args[name]]));

/** The MCP tools: each one a declared operation of v1 but `search_docs`, its arguments from that operation's declaration. */
export const mcpTools: readonly McpTool[] = [
  {
    name: "get_schema",
    input: z.object({}),
    annotations: readOnly,
    operation: () => ({ handler: vocabulary }),
  },
  {
    name: "validate_listing",
    input: z.object({ listing: declaredBody(validateListingRoute) }),
    annotations: readOnly,
    operation: (args) => ({ handler: validate, body: args.listing }),
  },
  {
    name: "upsert_listing_by_ref",
    input: z.object({ external_ref: refParams.shape.ref, listing: declaredBody(upsertListingByRefRoute) }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    operation: (args) => ({ handler: upsertByRef, params: { ref: args.external_ref }, body: args.listing }),
  },
  {
    name: "get_listing",
    input: declared(accountListingRoute, "params"),
    annotations: readOnly,
    operation: (args) => ({ handler: accountListing, params: { code: args.code } }),
  },
  {
    name: "list_listings",
    input: declared(accountListingsRoute, "query"),
    annotations: readOnly,
    operation: (args) => ({ handler: accountListings, query: pick(args, declared(accountListingsRoute, "query")) }),
  },
  {
    name: "change_listing_state",
    input: codeParams.extend({ action: stateAction }),
    // Pausing a paused listing or marking a sold one sold again changes nothing; resuming is the way back from a pause.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    operation: (args) => {
      const action = parseOrThrow(z.object({ action: stateAction }), args).action;
      return { handler: stateActions[action], params: { code: args.code } };
    },
  },
  {
    name: "set_photos",
    input: declared(setListingPhotosRoute, "params").extend({ photos: (declaredBody(setListingPhotosRoute) as z.ZodObject).shape.photos }),
    // The list replaces the listing's photos: one left out of it is deleted.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    operation: (args) => ({ handler: setPhotos, params: { code: args.code }, body: { photos: args.photos } }),
  },
  {
    name: "list_events",
    // No long poll: an agent asks again when it wants newer events, rather than holding a request open.
    input: declared(eventsRoute, "query").omit({ wait: true }),
    annotations: readOnly,
    operation: (args) => ({ handler: events, query: { after: args.after, limit: args.limit } }),
  },
  {
    name: "get_import",
    input: declared(getListingImportRoute, "params").extend(declared(getListingImportRoute, "query").shape),
    annotations: readOnly,
    operation: (args) => ({
      handler: listingImport,
      params: { id: args.id },
      query: pick(args, declared(getListingImportRoute, "query")),
    }),
  },
  {
    name: "search_docs",
    input: docsQuery,
    annotations: readOnly,
    answer: (args, locale) => ({
      data: searchGuides(locale, parseOrThrow(docsQuery, args).query).map((result) => ({
        title: result.guide.title,
        section: result.heading?.text ?? null,
        url: `${config().APP_URL}/docs/${result.guide.slug}${result.heading ? `#${result.heading.id}` : ""}`,
        snippet: result.snippet,
      })),
    }),
  },
];
