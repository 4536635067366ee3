import { z } from "zod";
import { exampleApartment } from "@/lib/domain/listings/examples";
import { importModeQuery } from "@/lib/domain/imports/start-import";
import { importListQuery } from "@/lib/domain/imports/list-imports";
import { importSummarySchema } from "@/lib/domain/imports/render";
import { maxImportBodyBytes, maxImportLineBytes, maxImportLines, ndjsonContentType } from "@/lib/domain/imports/limits";
import { idempotencyKeyMaxLength } from "@/lib/adapters/http/idempotency";
import { defineRoute } from "@/lib/adapters/http/route";
import { listingsTag } from "../../parameters";

export const importKeyBody = z
  .object({
    key: z
      .string()
      .regex(/^upl_[0-9a-z]{16}$/)
      .meta({ description: "The key of a file sent with `POST /uploads` and `PUT /uploads/{key}`: the NDJSON lines, up to 20 MiB." }),
  })
  .meta({ id: "ImportFileReference" });

export const importAcceptedSchema = z
  .object({ data: z.object({ id: z.string(), status: z.literal("queued") }) })
  .meta({ id: "ImportAccepted" });

const exampleLine = JSON.stringify({ ...exampleApartment, external_ref: "crm-10442" });

export const createListingImportRoute = defineRoute({
  method: "POST",
  path: "/listings/imports",
  operationId: "createListingImport",
  summary: "Import listings in bulk",
  description: [
    `NDJSON (\`${ndjsonContentType}\`): one \`PUT /listings/ref/{ref}\` body a line, each with its \`external_ref\`; at most ${maxImportLines.toLocaleString("en")} lines and 10 MiB (${maxImportBodyBytes.toLocaleString("en")} bytes) sent directly, each line at most 1 MiB (${maxImportLineBytes.toLocaleString("en")} bytes). A larger file is sent with \`POST /uploads\` and named here as JSON \`{"key": "upl_…"}\`.`,
    "Answers 202 at once with the import's id; the lines are applied in the background (those of one `external_ref` in file order), each exactly as `PUT /listings/ref/{ref}` would apply it (the same validation, creation or merge patch, events), and each ends `created`, `updated`, `unchanged` or `refused` (read them with `GET /listings/imports/{id}`). `import.completed` is written when the last line is done. Sending the same lines again leaves the listings `unchanged`.",
    "One import per account at a time: another while one is queued or running is 409 `import_in_progress` (its `detail` names the import). Refusals of the whole import: 415 `unsupported_media_type`, 413 `payload_too_large` and `import_too_many_lines`, 400 `import_empty`, `invalid_encoding` or `malformed_json` (the JSON reference), 422 at `/key` (an unknown or unsent upload).",
    "`mode=full` syncs the whole inventory: active listings whose `external_ref` the file lacks are withdrawn after the lines, within `max_withdrawals` (beyond it the import ends `refused` and writes nothing). A line whose `source_updated_at` is older than its listing's ends `stale`.",
    "`Idempotency-Key` works as on `POST /listings`: the same key and body answer the same 202 with the same import id.",
  ].join("\n\n"),
  tags: listingsTag,
  permission: "listings:write",
  headers: z.object({ "idempotency-key": z.string().min(1).max(idempotencyKeyMaxLength).optional() }),
  query: importModeQuery,
  body: {
    schema: z.string().meta({ description: "Newline-delimited JSON: one listing body (with `external_ref`) a line." }),
    types: [ndjsonContentType, "application/json"],
    example: `${exampleLine}\n`,
    variants: { "application/json": { schema: importKeyBody, example: { key: "upl_3k9t2m7q1x8c4v6b" } } },
  },
  responses: {
    202: {
      description: "Queued.",
      schema: importAcceptedSchema,
      headers: { Location: { description: "`/api/v1/listings/imports/{id}`", schema: { type: "string" } } },
    },
  },
  errors: [400, 409, 413, 415, 422],
});

export const importPageSchema = z
  .object({
    data: z.array(importSummarySchema),
    links: z.object({ first: z.string(), next: z.string().nullable() }),
    meta: z.object({ path: z.string(), per_page: z.number().int(), next_cursor: z.string().nullable() }),
  })
  .meta({ id: "ListingImportsPage" });

export const listListingImportsRoute = defineRoute({
  method: "GET",
  path: "/listings/imports",
  operationId: "listListingImports",
  summary: "Your bulk imports",
  description:
    "The account's imports, newest first, those sent to `POST /listings/imports` and those its feeds' pulls made (`feed_id`), each with its `status`, `mode`, counts, `error_code` or `error`, `created_at` and `completed_at`; its line results are `GET /listings/imports/{id}`. `feed_id` keeps one feed's imports (a feed that is not the account's lists nothing). While `links.next` is not null, it (or `cursor` = `meta.next_cursor`) gives the next page.",
  tags: listingsTag,
  permission: "listings:read",
  query: importListQuery,
  responses: { 200: { description: "A page of imports.", schema: importPageSchema } },
  errors: [422],
});
