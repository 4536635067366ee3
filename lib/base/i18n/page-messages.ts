import type { Locale } from "./index";
import { pageEn } from "./page-en";
import { pageRo } from "./page-ro";
import type { Texts } from "./pages/area";

/** The page key registry: the shape of the English catalogue, which the Romanian one must match. */
export type PageMessages = Texts<typeof pageEn>;

const catalogues: Record<Locale, PageMessages> = { ro: pageRo, en: pageEn };

/** The texts of the portal's pages (the API's messages are `messages()` in index.ts). */
export function pageMessages(locale: Locale): PageMessages {
  return catalogues[locale];
}
