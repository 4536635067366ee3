import { ValidationError } from "@/lib/platform/errors";
import { encodeCursor, type Page } from "@/lib/domain/listings/internal/pagination";
import type { ListedRow } from "@/lib/domain/listings/internal/queries";

const detailFields = [
  "code",
  "url",
  "type",
  "subtype",
  "transaction",
  "title",
  "description",
  "content_locale",
  "price",
  "currency",
  "price_period",
  "price_declared",
  "reserved",
  "negotiable",
  "location",
  "facts",
  "features",
  "images",
  "published_at",
  "updated_at",
  "attribution",
  "contact_phone",
  "external_ref",
  "status",
  "moderation",
  "media",
  "etag",
];

/** `fields=a,b`: only these members of the detail shape; an unknown name is a 422 naming it. */
export function parseFields(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !detailFields.includes(n));
  if (!names.length || unknown.length) {
    throw new ValidationError([{ pointer: "/fields", in: "query", code: "in", params: { values: detailFields.join(", ") } }]);
  }
  return names;
}

export function pickFields(shape: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((name) => [name, shape[name]]));
}

/**
 * The collection body of the spec: `{ data, links: { first, last, prev, next }, meta: { path,
 * per_page, next_cursor, prev_cursor } }`; links keep the caller's filters.
 */
export function collectionBody(url: URL, page: Page<ListedRow>, perPage: number, data: unknown[]) {
  const path = `${url.origin}${url.pathname}`;
  const link = (cursor?: string) => {
    const params = new URLSearchParams(url.searchParams);
    params.delete("cursor");
    if (cursor) params.set("cursor", cursor);
    const query = params.toString();
    return query ? `${path}?${query}` : path;
  };
  const next = page.next ? encodeCursor(page.next) : null;
  const prev = page.prev ? encodeCursor(page.prev) : null;
  return {
    data,
    links: {
      first: link(),
      last: link(encodeCursor({ last: true })),
      prev: prev ? link(prev) : null,
      next: next ? link(next) : null,
    },
    meta: { path, per_page: perPage, next_cursor: next, prev_cursor: prev },
  };
}
