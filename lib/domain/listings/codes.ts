import { randomToken } from "@/lib/base/ids";

// Upper-case letters and digits without 0/O, 1/I/L: a code read aloud or typed from paper survives.
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const listingCodePattern = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

export const newListingCode = (): string => randomToken(8, codeAlphabet);

/** A path segment that cannot be a code is a missing listing, answered without a query. */
export const isListingCode = (value: string): boolean => listingCodePattern.test(value);
