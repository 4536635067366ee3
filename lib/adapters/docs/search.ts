import type { Locale } from "@/lib/base/i18n";
import { guides, type Guide, type GuideHeading } from "./content";

export interface SearchResult {
  guide: Pick<Guide, "slug" | "title">;
  /** The section the words are in (its heading links to it), or null for the guide's opening. */
  heading: GuideHeading | null;
  snippet: string;
}

/** Lower case without diacritics: "Pornește" and "porneste" are one word to the search. */
export const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

export const searchTerms = (query: string) =>
  [...new Set(fold(query).split(/[^\p{L}\p{N}_.]+/u))].filter((term) => term.length >= 2).slice(0, 8);

const snippetLength = 180;

/** Around the first place a term occurs in the text, cut at word boundaries. */
function snippetOf(text: string, terms: string[]): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const folded = fold(flat);
  const at = Math.min(...terms.map((term) => folded.indexOf(term)).filter((index) => index >= 0), flat.length);
  if (at === flat.length) return flat.slice(0, snippetLength).replace(/\s\S*$/, "") + (flat.length > snippetLength ? " …" : "");
  const start = Math.max(0, flat.lastIndexOf(" ", Math.max(0, at - 60)) + 1);
  const end = Math.min(flat.length, start + snippetLength);
  const cut = end < flat.length ? flat.slice(start, end).replace(/\s\S*$/, "") : flat.slice(start);
  return `${start > 0 ? "… " : ""}${cut}${end < flat.length ? " …" : ""}`;
}

/**
 * The guides of a language that contain every word of the query (in the title, a heading, the text
 * or a code sample; case and diacritics ignored), best first: a word in the title weighs most, then
 * in a heading, then each time it occurs (in the prose twice as much as in code). Each result points at the section that matched best.
 */
export function searchGuides(locale: Locale, query: string): SearchResult[] {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const results: (SearchResult & { score: number })[] = [];
  for (const guide of guides(locale)) {
    const title = fold(guide.title);
    const sections = guide.sections.map((section) => ({
      section,
      heading: fold(section.heading?.text ?? ""),
      text: fold(section.text),
      code: fold(section.code),
    }));
    const inGuide = (term: string) =>
      title.includes(term) || sections.some((s) => s.heading.includes(term) || s.text.includes(term) || s.code.includes(term));
    if (!terms.every(inGuide)) continue;
    let score = 0;
    let best = { score: -1, section: guide.sections[0] };
    for (const { section, heading, text, code } of sections) {
      let sectionScore = 0;
      for (const term of terms) {
        if (heading.includes(term)) sectionScore += 4;
        // Prose says what a section is about more than a word in its code does.
        sectionScore += 2 * (text.split(term).length - 1) + (code.split(term).length - 1);
      }
      score += sectionScore;
      if (sectionScore > best.score) best = { score: sectionScore, section };
    }
    score += terms.filter((term) => title.includes(term)).length * 5;
    const text = best.section.text || guide.summary;
    results.push({
      guide: { slug: guide.slug, title: guide.title },
      heading: best.section.heading,
      snippet: snippetOf(text, terms),
      score,
    });
  }
  return results.sort((a, b) => b.score - a.score).map(({ guide, heading, snippet }) => ({ guide, heading, snippet }));
}
