import { catalogue, type Catalogue, type Locale } from "./index";

/** The page key registry: the `pages` part of the English catalogue, which the Romanian one must match. */
export type PageMessages = Catalogue["pages"];

/** The texts of the portal's pages (the API's messages are `messages()` in index.ts). */
export function pageMessages(locale: Locale): PageMessages {
  return catalogue(locale).pages;
}
