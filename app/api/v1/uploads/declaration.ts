import { z } from "zod";
import { createUploadInput } from "@/lib/domain/media/create-upload";
import { uploadContentType } from "@/lib/domain/media/limits";
import { defineRoute } from "@/lib/adapters/http/route";

const uploadGrantSchema = z
  .object({
    method: z.literal("PUT"),
    url: z.string().meta({
      format: "uri",
      description:
        "Pre-signed for 15 minutes; send the file once, with `PUT`, the headers below and `Content-Length` equal to `content_length`.",
    }),
    headers: z.object({ "Content-Type": z.literal(uploadContentType) }).meta({ description: "Send exactly these headers." }),
    key: z.string().meta({
      description: "Use it in `PUT /listings/{code}/photos` once the file is sent; unused keys are deleted after about 24 hours.",
    }),
  })
  .meta({ id: "UploadGrant" });

export const createUploadRoute = defineRoute({
  method: "POST",
  path: "/uploads",
  operationId: "createUpload",
  summary: "Get a pre-signed upload URL",
  description:
    "A key and a URL valid for 15 minutes to send one photo file (JPEG, PNG or WebP, at most 20 MiB and 100 megapixels; the type is read from the bytes when the photo is processed). The URL points at this API (`PUT /uploads/{key}`) whichever file storage runs behind it.",
  tags: ["Photos"],
  permission: "media:write",
  body: { schema: createUploadInput, example: { content_length: 2_481_152 } },
  responses: { 201: { description: "The upload URL and its key.", schema: uploadGrantSchema } },
  errors: [422],
});
