import { z } from "zod";
import { importFailures, importModes, listingImportOutcomes, listingImportStatuses } from "@/db/schema";
import { AppError, errorStatus, ValidationError, type ErrorCode, type FieldError } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { renderProblem } from "@/lib/base/problem";
import { importRefusalSchema, importTotalsSchema } from "@/lib/domain/events";
import type { ImportLineRow, ImportView } from "./get-import";
import type { ImportSummary } from "./list-imports";

export const importResultSchema = z
  .object({
    line: z
      .number()
      .int()
      .min(1)
      .nullable()
      .meta({ description: "The line of the file, from 1; null for a listing a `full` import withdrew (outcome `withdrawn`)." }),
    external_ref: z.string().nullable().meta({ description: "The line's `external_ref`; null when it had none (or not a valid one)." }),
    outcome: z.enum(listingImportOutcomes),
    code: z
      .string()
      .nullable()
      .meta({ description: "The listing's code when the line created, updated or left one unchanged; null when refused." }),
    error_code: z.string().nullable().meta({
      description:
        "A refused line's problem code, as a single `PUT /listings/ref/{ref}` would have answered it (`validation_failed`, `listing_action_refused`, `listing_busy`, `malformed_json`, `payload_too_large`...); null otherwise.",
    }),
    detail: z.string().nullable().meta({ description: "A refused line's problem detail, in the request's language; null otherwise." }),
    errors: z.array(z.object({ pointer: z.string(), code: z.string(), reason: z.string().optional(), detail: z.string() })).meta({
      description: "A refused line's field errors, the items of a single call's 422 (pointers into the line's body); empty otherwise.",
    }),
  })
  .meta({ id: "ImportResult" });

export const importSchema = z
  .object({
    id: z.string(),
    status: z.enum(listingImportStatuses).meta({
      description:
        "`queued`, `running`, then how it ended: `completed` (every line applied or refused), `cancelled` (`DELETE /listings/imports/{id}`), `failed` (its key may write no more: `error_code`), `refused` (a `full` import over its `max_withdrawals`, nothing written: `error`).",
    }),
    mode: z.enum(importModes).meta({ description: "`upsert` or `full`, as `POST /listings/imports` was sent." }),
    feed_id: z.string().nullable().meta({
      description: "The feed (`POST /feeds`) whose pull made the import; null for one sent to `POST /listings/imports`.",
    }),
    error: importRefusalSchema.nullable().meta({ description: "Why a `refused` import wrote nothing; null otherwise." }),
    error_code: z.enum(importFailures).nullable().meta({
      description:
        "Why a `failed` import stopped: `key_revoked` (the key that sent it was revoked, or its app disconnected), `key_expired`, `account_inactive`; null otherwise. Accept other values too.",
    }),
    lines: importTotalsSchema,
    results: z.array(importResultSchema),
  })
  .meta({ id: "ListingImport" });

/** An item of `GET /listings/imports`: the import's members but its results, and when it was sent and ended. */
export const importSummarySchema = importSchema
  .omit({ results: true })
  .extend({
    created_at: z.string().meta({ format: "date-time", description: "When it was sent (or its feed pulled), RFC 3339." }),
    completed_at: z
      .string()
      .nullable()
      .meta({ format: "date-time", description: "When it ended, RFC 3339; null while `queued` or `running`." }),
  })
  .meta({ id: "ListingImportSummary" });

export type ImportResult = z.output<typeof importResultSchema>;

/** A line result as the API and the portal show it, its refusal rendered in `locale`. */
export function renderResult(row: ImportLineRow, locale: Locale): ImportResult {
  const problem = row.errorCode ? renderProblem(refusalOf(row), locale, "") : null;
  return {
    line: row.outcome === "withdrawn" ? null : row.line,
    external_ref: row.externalRef,
    outcome: row.outcome,
    code: row.listingCode,
    error_code: row.errorCode,
    detail: problem?.detail ?? null,
    errors: (problem?.errors ?? []).map(({ pointer, code, reason, detail }) => ({ pointer, code, ...(reason ? { reason } : {}), detail })),
  };
}

/** The members an import has in the API, its line results aside. */
const importMembers = (view: ImportSummary) => ({
  id: view.id,
  status: view.status,
  error_code: view.errorCode,
  mode: view.mode,
  feed_id: view.feedId,
  error: view.refusal,
  lines: view.lines,
});

export const renderImport = (view: ImportView, locale: Locale) => ({
  data: { ...importMembers(view), results: view.results.map((row) => renderResult(row, locale)) },
  meta: { next: view.next },
});

/** An item of `GET /listings/imports`. */
export const renderImportSummary = (view: ImportSummary): z.output<typeof importSummarySchema> => ({
  ...importMembers(view),
  created_at: view.createdAt.toISOString(),
  completed_at: view.completedAt?.toISOString() ?? null,
});

function refusalOf(row: ImportLineRow): AppError {
  const { params, errors } = row.problem ?? { params: {}, errors: [] };
  if (row.errorCode === "validation_failed") return new ValidationError(errors as FieldError[]);
  const code = (Object.hasOwn(errorStatus, row.errorCode!) ? row.errorCode : "internal_error") as ErrorCode;
  // The stored parameters are those the refusal was thrown with, for this same code.
  return new AppError(code, params as never);
}
