import { z } from "zod";
import { encodeSequenceCursor, type KeysetPage, type SequencePage } from "@/lib/base/cursor";
import { listingDetailSchema } from "@/lib/domain/listings/schemas";
import type { ListedRow } from "@/lib/domain/listings/read-shape";

/** Members `fields` may name: those of the detail shape, in its order. */
const detailFields = Object.keys(listingDetailSchema.shape);

const fieldNames = (value: string) =>
  value
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);

/**
 * `fields=a,b`: only these members of the detail shape, as a list of names. Empty or naming an
 * unknown member: a 422 `in` listing the names allowed.
 */
export const fieldsParameter = z
  .string()
  .superRefine((value, ctx) => {
    const names = fieldNames(value);
    if (!names.length || names.some((n) => !detailFields.includes(n)))
      ctx.addIssue({ code: "invalid_value", values: detailFields, input: value });
  })
  .transform(fieldNames)
  .optional()
  .meta({ description: "Comma-separated names of members of the detail shape, e.g. `code,external_ref,etag,updated_at`." });

export function pickFields(shape: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((name) => [name, shape[name]]));
}

/** The list's own address, and a link to it at `cursor` (none: the first page) keeping the caller's other parameters. */
function cursorLinks(url: URL) {
  const path = `${url.origin}${url.pathname}`;
  const link = (cursor?: string) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete("cursor");
    if (cursor) params.set("cursor", cursor);
    const query = params.toString();
    return query ? `${path}?${query}` : path;
  };
  return { path, link };
}

/**
 * The collection body of every API list: `{ data, links: { first, last, prev, next }, meta: { path,
 * per_page, next_cursor, prev_cursor } }`; links keep the caller's filters.
 */
export function collectionBody(url: URL, page: SequencePage<ListedRow>, perPage: number, data: unknown[]) {
  const { path, link } = cursorLinks(url);
  const next = page.next ? encodeSequenceCursor(page.next) : null;
  const prev = page.prev ? encodeSequenceCursor(page.prev) : null;
  return {
    data,
    links: {
      first: link(),
      last: link(encodeSequenceCursor({ last: true })),
      prev: prev ? link(prev) : null,
      next: next ? link(next) : null,
    },
    meta: { path, per_page: perPage, next_cursor: next, prev_cursor: prev },
  };
}

/**
 * The body of a forward-only keyset list (newest first, `GET /feeds`): `{ data, links: { first,
 * next }, meta: { path, per_page, next_cursor } }`, the sequence lists' members that such an order
 * can give; links keep the caller's other parameters.
 */
export function keysetCollectionBody<T>(url: URL, page: KeysetPage<T>, perPage: number) {
  const { path, link } = cursorLinks(url);
  return {
    data: page.items,
    links: { first: link(), next: page.nextCursor ? link(page.nextCursor) : null },
    meta: { path, per_page: perPage, next_cursor: page.nextCursor },
  };
}
