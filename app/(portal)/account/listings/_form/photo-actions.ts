"use server";

import { revalidatePath } from "next/cache";
import { requestLocale } from "@/app/locale";
import { createUploadBody } from "@/app/api/v1/uploads/declaration";
import { createUpload, type UploadGrant } from "@/lib/domain/media/create-upload";
import { setListingPhotos } from "@/lib/domain/media/set-photos";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { parseOrThrow } from "@/lib/base/validation/zod";
import { formText, refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { requireAccount } from "@/lib/adapters/portal/session";
import { listingFormTokenMatches } from "./form-token";

/**
 * A pre-signed upload URL for one file of the owner's photo picker (`POST /uploads`'s service); the
 * browser PUTs the file there and names it in the photo list by the key.
 */
export async function createPhotoUploadAction(
  token: string,
  code: string,
  contentLength: number,
): Promise<{ ok: true; grant: UploadGrant } | { ok: false; message: string }> {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  if (!listingFormTokenMatches(token, account, code)) return { ok: false, message: pageMessages(locale).myListings.staleForm };
  try {
    // The API's own check of the size (1 byte to 20 MiB), with its messages.
    const { content_length } = parseOrThrow(createUploadBody, { content_length: contentLength });
    return { ok: true, grant: await createUpload({ ctx, input: { contentLength: content_length } }) };
  } catch (error) {
    const refused = refusalState(error, locale);
    return { ok: false, message: Object.values(refused.fieldErrors ?? {})[0] ?? refused.message ?? "" };
  }
}

/** Saves the ordered photo list (`PUT /listings/{code}/photos`'s service): new photos go to processing. */
export async function savePhotosAction(_previous: FormState, form: FormData): Promise<FormState> {
  const { account, ctx } = await requireAccount();
  const locale = await requestLocale();
  const code = formText(form, "code", 20);
  if (!listingFormTokenMatches(form.get("token"), account, code)) return { ok: false, message: pageMessages(locale).myListings.staleForm };
  let body: unknown;
  try {
    body = JSON.parse(formText(form, "photos", 1_000_000));
  } catch {
    body = null;
  }
  try {
    await setListingPhotos({ ctx, input: { code, body } });
    revalidatePath(`/account/listings/${code}`);
    return { ok: true, message: pageMessages(locale).listingForm.photos.saved };
  } catch (error) {
    const refused = refusalState(error, locale);
    // Every refusal of a photo list is at `/photos/...`: one message for the list.
    return { ok: false, message: [refused.message, ...Object.values(refused.fieldErrors ?? {})].filter(Boolean).join(" ") };
  }
}
