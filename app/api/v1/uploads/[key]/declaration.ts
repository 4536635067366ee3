import { z } from "zod";
import { uploadContentType } from "@/lib/domain/media/limits";
import { defineRoute } from "@/lib/adapters/http/route";

export const uploadFileRoute = defineRoute({
  method: "PUT",
  path: "/uploads/{key}",
  operationId: "uploadFile",
  summary: "Send a file to a pre-signed upload URL",
  description: [
    "The `url` answered by `POST /uploads`, used as it is: no API key, the signature in the query is the credential. Send the bytes with the answered `Content-Type` and `Content-Length` equal to the declared `content_length`.",
    "Refusals, each with its own code: 403 `upload_signature_invalid` (a URL not signed here, or changed) and `upload_expired` (after 15 minutes); 415 `unsupported_media_type` (another `Content-Type`); 400 `upload_length_mismatch` (another or no `Content-Length`) and `upload_incomplete` (the body ended early); 413 `payload_too_large` (the body is longer than declared: reading stops); 409 `upload_already_used` (the file was sent already).",
    "A refused or failed upload stores nothing, and the URL can be used again until it expires; a stored one cannot.",
  ].join("\n\n"),
  tags: ["Photos"],
  permission: "public",
  params: z.object({
    key: z
      .string()
      .regex(/^upl_[0-9a-z]{16}$/)
      .meta({ description: "The upload key." }),
  }),
  query: z.object({
    expires: z.string().optional().meta({ description: "Unix time (seconds) after which the URL is refused; part of the signed URL." }),
    signature: z.string().optional().meta({ description: "The URL's signature; part of the signed URL." }),
  }),
  body: {
    schema: z.string().meta({ format: "binary", description: "The file's bytes." }),
    types: [uploadContentType],
    example: "<the file's bytes>",
  },
  responses: { 204: { description: "Stored; use the key in `PUT /listings/{code}/photos`." } },
  errors: [400, 403, 404, 409, 413, 415],
});
