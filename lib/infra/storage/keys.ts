/**
 * Blob keys are relative paths of 1 to 8 segments of letters, digits, `.`, `_` and `-`, each starting
 * with a letter or digit: no `..`, no absolute path, no backslash, no empty segment, no character a
 * URL or a file system reads differently. Both storages use them verbatim, as a path under the
 * local folder and as a Vercel Blob pathname, so the public URL of a key needs no encoding. A
 * segment never starts with `.`, which keeps keys apart from the local storage's temporary files.
 */
const segment = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const maxSegments = 8;
export const maxBlobKeyLength = 512;

export function isBlobKey(key: unknown): key is string {
  if (typeof key !== "string" || key.length === 0 || key.length > maxBlobKeyLength) return false;
  const segments = key.split("/");
  return segments.length <= maxSegments && segments.every((part) => segment.test(part));
}

export class InvalidBlobKeyError extends Error {
  constructor(key: unknown) {
    super(`invalid blob key: ${JSON.stringify(typeof key === "string" ? key.slice(0, 80) : typeof key)}`);
    this.name = "InvalidBlobKeyError";
  }
}

export function assertBlobKey(key: unknown): asserts key is string {
  if (!isBlobKey(key)) throw new InvalidBlobKeyError(key);
}
