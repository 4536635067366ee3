/**
 * The origin a store's public blobs are served from, `https://<store>.public.blob.vercel-storage.com`
 * (the store id is the token's fourth `_`-separated part, where the SDK reads it). Pages showing
 * photos allow images from it (lib/adapters/portal/security-headers.ts).
 */
export function vercelBlobOrigin(token: string): string {
  const storeId = token.split("_")[3] ?? "";
  if (!/^[A-Za-z0-9]+$/.test(storeId)) throw new Error("BLOB_READ_WRITE_TOKEN does not have the form vercel_blob_rw_<store id>_<secret>");
  return `https://${storeId.toLowerCase()}.public.blob.vercel-storage.com`;
}
