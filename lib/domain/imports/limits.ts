/** The published limits of a bulk import, in one place for the routes, the job and the documentation. */

/** Lines of one import. */
export const maxImportLines = 10_000;

/**
 * Bytes of an import sent directly in the body of `POST /listings/imports`: 10 MiB, room for 10 000
 * lines of about 1 KB. A larger file goes through `POST /uploads` (up to 20 MiB) and is named by its key.
 */
export const maxImportBodyBytes = 10 * 1024 * 1024;

/** Bytes of one line: those of a single `PUT /listings/ref/{ref}` body (lib/adapters/http/body.ts). */
export const maxImportLineBytes = 1_048_576;

/** The media type of a direct import: newline-delimited JSON. */
export const ndjsonContentType = "application/x-ndjson";
