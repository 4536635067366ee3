import { statusClasses, type StatusClass } from "@/lib/domain/api-log/list-api-log";
import { givenCursor, pageHref } from "./paging";

/**
 * What the API log pages do besides calling services: read the filters from the address (a shared
 * link may carry anything), write the address of a filtered page, and present a row's values.
 */

export const apiLogPath = "/settings/api/log";

/** A page's query as Next.js gives it: a repeated parameter is an array. */
export type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

export interface ApiLogFilters {
  status?: StatusClass;
  keyId?: string;
  path?: string;
}

/** A parameter of the address that was present but not usable (and so left out). */
export type IgnoredParameter = "status" | "key" | "path" | "cursor";

export interface ApiLogQuery {
  filters: ApiLogFilters;
  cursor?: string;
  ignored: IgnoredParameter[];
}

/** The service's bound (listApiLogInput): a longer value would be refused rather than ignored. */
const maxPathLength = 2048;

const first = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? "") : (value ?? "")).trim();

const isStatusClass = (value: string): value is StatusClass => (statusClasses as readonly string[]).includes(value);

/**
 * The filters of `?status=4xx&key=…&path=/api/v1/listings&cursor=…`. Empty parameters (what an
 * unfilled GET form sends) mean no filter; a value that cannot be used is left out and named in
 * `ignored`, so the page shows what it can instead of failing. `key` must be one of `ownKeyIds`;
 * a path is a prefix of what the log records, which always starts with `/`.
 */
export function parseApiLogQuery(params: SearchParams, ownKeyIds: readonly string[]): ApiLogQuery {
  const filters: ApiLogFilters = {};
  const ignored: IgnoredParameter[] = [];

  const status = first(params.status).toLowerCase();
  if (status && isStatusClass(status)) filters.status = status;
  else if (status) ignored.push("status");

  const key = first(params.key);
  if (key && ownKeyIds.includes(key)) filters.keyId = key;
  else if (key) ignored.push("key");

  const typedPath = first(params.path);
  const path = typedPath && !typedPath.startsWith("/") ? `/${typedPath}` : typedPath;
  if (path && path.length <= maxPathLength) filters.path = path;
  else if (path) ignored.push("path");

  const { cursor, malformed } = givenCursor(params);
  if (cursor) return { filters, cursor, ignored };
  if (malformed) ignored.push("cursor");
  return { filters, ignored };
}

export const hasFilters = (filters: ApiLogFilters): boolean =>
  filters.status !== undefined || filters.keyId !== undefined || filters.path !== undefined;

/** The address of the log with these filters (and a page's cursor), in the order the form sends them. */
export function apiLogHref(filters: ApiLogFilters, cursor?: string | null): string {
  return pageHref(apiLogPath, { status: filters.status, key: filters.keyId, path: filters.path }, cursor ?? undefined);
}

export const apiLogEntryHref = (id: string): string => `${apiLogPath}/${encodeURIComponent(id)}`;

/** The badge of a status: its class's tone (3xx is neutral). */
export function statusTone(status: number): "ok" | "neutral" | "warn" | "bad" {
  if (status >= 200 && status < 300) return "ok";
  if (status >= 400 && status < 500) return "warn";
  if (status >= 500) return "bad";
  return "neutral";
}

/** A stored body as the page shows it: JSON pretty-printed, a text body as it is, no body as null. */
export function prettyBody(body: unknown): string | null {
  if (body === null || body === undefined) return null;
  if (typeof body === "string") return body;
  return JSON.stringify(body, null, 2);
}
