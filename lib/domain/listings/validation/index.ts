export { listingWriteSchema } from "./field-schemas";
export { isMeaningfulText } from "./meaningful-text";
export { isValidParcelRing } from "./parcel";
export type * from "./types";
export { validateListing } from "./validate-listing";
