/** The published limits for photos, in one place for the routes, the job and the documentation. */

/** Size of a photo: 20 MB, counted as 20 MiB (20 971 520 bytes) so that a file of "20 MB" by either count passes. */
export const maxPhotoBytes = 20 * 1024 * 1024;

/** Resolution of a photo: 100 megapixels (sharp's `limitInputPixels`). */
export const maxPhotoPixels = 100_000_000;

export const maxPhotosPerListing = 100;
export const maxPhotoUrlLength = 2048;
export const maxRoomsPerPhoto = 3;
/** A room label's length after trimming (labels are free text, not codes). */
export const maxRoomLabelLength = 60;

/**
 * The one Content-Type an upload is sent with: the body has only `content_length`, and the real
 * type is read from the bytes when the photo is processed, never from what a client declares.
 */
export const uploadContentType = "application/octet-stream";

/** Where an upload's bytes are kept in file storage. */
export const uploadBlobKey = (key: string): string => `uploads/${key}`;
