import { openApiDocument } from "@/lib/adapters/openapi/document";
import type { RouteDeclaration } from "@/lib/adapters/http/route";
import { accountListingRoute } from "./account/listings/[code]/declaration";
import { accountListingsRoute } from "./account/listings/declaration";
import { accountListingByRefRoute } from "./account/listings/ref/[ref]/declaration";
import { eventsRoute } from "./events/declaration";
import { catalogListingRoute, deleteListingRoute, editListingRoute } from "./listings/[code]/declaration";
import { pauseListingRoute } from "./listings/[code]/pause/declaration";
import { resumeListingRoute } from "./listings/[code]/resume/declaration";
import { markListingSoldRoute } from "./listings/[code]/sold/declaration";
import { catalogRoute, createListingRoute } from "./listings/declaration";
import { upsertListingByRefRoute } from "./listings/ref/[ref]/declaration";
import { createListingImportRoute, listListingImportsRoute } from "./listings/imports/declaration";
import { cancelListingImportRoute, getListingImportRoute } from "./listings/imports/[id]/declaration";
import { validateListingRoute } from "./listings/validate/declaration";
import { createFeedRoute, listFeedsRoute } from "./feeds/declaration";
import { deleteFeedRoute, getFeedRoute } from "./feeds/[id]/declaration";
import { pullFeedRoute } from "./feeds/[id]/pull/declaration";
import { registerClientRoute } from "./oauth/register/declaration";
import { revokeRoute } from "./oauth/revoke/declaration";
import { tokenRoute } from "./oauth/token/declaration";
import { openApiRoute } from "./openapi.json/declaration";
import { pingRoute } from "./ping/declaration";
import { vocabularyRoute } from "./schema/declaration";
import { setListingPhotosRoute } from "./listings/[code]/photos/declaration";
import { createUploadRoute } from "./uploads/declaration";
import { uploadFileRoute } from "./uploads/[key]/declaration";
import { simulateModerationRoute } from "./sandbox/listings/[code]/moderation/declaration";
import { triggerSandboxEventRoute } from "./sandbox/events/declaration";

/**
 * Every operation of v1, in the document's order. Each is declared beside its route file; this list
 * only gathers them for the document (lib never imports app). tests/api/route-declarations.test.ts
 * fails when a route file under app/api/v1 serves a handler whose declaration is missing here.
 */
export const routes: readonly RouteDeclaration[] = [
  pingRoute,
  vocabularyRoute,
  catalogRoute,
  createListingRoute,
  validateListingRoute,
  catalogListingRoute,
  editListingRoute,
  deleteListingRoute,
  pauseListingRoute,
  resumeListingRoute,
  markListingSoldRoute,
  upsertListingByRefRoute,
  createListingImportRoute,
  listListingImportsRoute,
  getListingImportRoute,
  cancelListingImportRoute,
  createFeedRoute,
  listFeedsRoute,
  getFeedRoute,
  deleteFeedRoute,
  pullFeedRoute,
  accountListingsRoute,
  accountListingRoute,
  accountListingByRefRoute,
  eventsRoute,
  registerClientRoute,
  tokenRoute,
  revokeRoute,
  createUploadRoute,
  setListingPhotosRoute,
  uploadFileRoute,
  simulateModerationRoute,
  triggerSandboxEventRoute,
  openApiRoute,
];

/** The OpenAPI document of v1 (served at `/api/v1/openapi.json`). */
export const apiDocument = () => openApiDocument(routes);
