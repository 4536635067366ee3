import { uploads } from "@/db/schema";
import { grantUpload } from "@/lib/domain/media/upload-signature";
import { config } from "@/lib/base/config";
import type { AccountActor, ServiceContext } from "@/lib/base/context";
import { newId } from "@/lib/base/ids";
import { uploadContentType } from "./limits";

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
  input: { contentLength: number };
}): Promise<UploadGrant> {
  const key = newId("upload");
  const { terms, token } = grantUpload({
    key,
    contentLength: input.contentLength,
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
