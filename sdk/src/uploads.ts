import type { Client } from "openapi-fetch";
import { ApiError, unwrap } from "./errors.js";
import type { paths } from "./generated/openapi.js";

type Fetch = (request: Request) => Promise<Response>;

/** Direct photo uploads: a pre-signed URL, then the file's bytes, then its `key` in `listings.setPhotos`. */
export function uploadsResource(raw: Client<paths>, send: Fetch) {
  return {
    /**
     * `POST /uploads` for the file's size, then `PUT` of its bytes to the pre-signed URL (no API key: the
     * signature in the URL is the credential). Answers the upload `key` for a photo item.
     */
    async upload(file: Uint8Array): Promise<string> {
      const grant = await unwrap(raw.POST("/uploads", { body: { content_length: file.byteLength } }));
      const headers = { ...grant.headers, "Content-Length": String(file.byteLength) };
      const response = await send(new Request(grant.url, { method: grant.method, headers, body: file.slice() }));
      if (!response.ok) throw new ApiError(response, await response.json().catch(() => null));
      return grant.key;
    },
  };
}

export type UploadsResource = ReturnType<typeof uploadsResource>;
