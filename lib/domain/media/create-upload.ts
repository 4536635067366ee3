import { z } from "zod";
import { uploads } from "@/db/schema";
import { grantUpload } from "@/lib/domain/media/upload-signature";
import { config } from "@/lib/base/config";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { newId } from "@/lib/base/ids";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { maxPhotoBytes, uploadContentType } from "./limits";

/** What an upload is asked for with (`POST /uploads`'s body, the portal's photo picker): the file's size, within the photo limit. */
export const createUploadInput = z.object({
  content_length: z
    .number()
    .int()
    .min(1)
    .max(maxPhotoBytes)
    .meta({ description: `Size of the file to upload in bytes: 1 to ${maxPhotoBytes} (20 MiB).` }),
});

export interface UploadGrant {
  method: "PUT";
  url: string;
  headers: { "Content-Type": string };
  key: string;
}

/**
 * `POST /uploads`: a key of the caller's account and a URL pre-signed for 15 minutes over the key,
 * the declared length, the content type and the expiry. The URL points at this application
 * (`PUT /api/v1/uploads/{key}`), which streams the body into file storage on either backend.
 */
export async function createUpload({
  ctx,
  input,
}: {
  ctx: ServiceContext<AccountActor>;
  input: z.input<typeof createUploadInput>;
}): Promise<UploadGrant> {
  const { content_length: contentLength } = parseOrThrow(createUploadInput, input);
  const key = newId("upload");
  const { terms, token } = grantUpload({
    key,
    contentLength,
    contentType: uploadContentType,
    nowMs: ctx.now.getTime(),
  });
  await ctx.db.insert(uploads).values({
    key,
    accountId: ctx.actor.accountId,
    contentLength: terms.contentLength,
    contentType: terms.contentType,
    expiresAt: new Date(terms.expires * 1000),
    createdAt: ctx.now,
  });
  const url = new URL(`${config().APP_URL.replace(/\/+$/, "")}/api/v1/uploads/${key}`);
  url.searchParams.set("expires", String(terms.expires));
  url.searchParams.set("signature", token);
  return { method: "PUT", url: url.toString(), headers: { "Content-Type": terms.contentType }, key };
}
