"use server";

import { z } from "zod";
import { createUpload, createUploadInput, type UploadGrant } from "@/lib/domain/media/create-upload";
import { setListingPhotos } from "@/lib/domain/media/set-photos";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalAction, type PortalAction } from "@/lib/adapters/portal/action";
import { text } from "@/lib/adapters/portal/form-fields";
import { refusalState, type FormState } from "@/lib/adapters/portal/form-state";
import { listingFormToken } from "./form-token";

export interface UploadState extends FormState {
  grant?: UploadGrant;
}

/**
 * A pre-signed upload URL for one file of the owner's photo picker (`POST /uploads`'s service); the
 * browser PUTs the file there and names it in the photo list by the key. Called by the picker's
 * script with the form's token, the listing's code and the file's size.
 */
export const createPhotoUploadAction: PortalAction<UploadState> = portalAction({
  session: "account",
  input: z.object({
    code: text(20),
    // The service's own check of the size (1 byte to 20 MiB), with its messages.
    content_length: text(20).transform(Number).pipe(createUploadInput.shape.content_length),
  }),
  token: listingFormToken,
  run: async ({ ctx, input }) => ({ ok: true, grant: await createUpload({ ctx, input: { content_length: input.content_length } }) }),
  refused: (error, { locale }) => {
    // The picker says one reason beside the file's name.
    const refused = refusalState(error, locale);
    return { ok: false, message: Object.values(refused.fieldErrors ?? {})[0] ?? refused.message };
  },
});

/** Saves the ordered photo list (`PUT /listings/{code}/photos`'s service): new photos go to processing. */
export const savePhotosAction = portalAction({
  session: "account",
  input: z.object({ code: text(20), photos: text(1_000_000).transform(jsonOrNull) }),
  token: listingFormToken,
  run: async ({ ctx, input: { code, photos }, locale }) => {
    await setListingPhotos({ ctx, input: { code, body: photos } });
    return { ok: true, message: pageMessages(locale).listingForm.photos.saved };
  },
  refused: (error, { locale }) => {
    const refused = refusalState(error, locale);
    // Every refusal of a photo list is at `/photos/...`: one message for the list.
    return { ok: false, message: [refused.message, ...Object.values(refused.fieldErrors ?? {})].filter(Boolean).join(" ") };
  },
  revalidate: ({ code }) => [`/account/listings/${code}`],
});

/** What the service's schema then refuses with its own codes. */
function jsonOrNull(posted: string): unknown {
  try {
    return JSON.parse(posted);
  } catch {
    return null;
  }
}
