/** A catalogue's texts with the same keys as `T` and any wording. */
export type Texts<T> = { readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };

/**
 * The texts of one area of the portal (sign-in, API keys, …) in both languages, side by side in one
 * file so that a page's author writes both at once; TypeScript refuses a Romanian text missing or
 * extra. page-en.ts and page-ro.ts mount each area under its name.
 */
export const pageArea = <T>(texts: { en: T; ro: Texts<T> }) => texts;
