import { readFileSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import type { Locale } from "@/lib/base/i18n";
import { guideSlugs, type GuideSlug } from "./guides";

export interface GuideHeading {
  depth: 2 | 3;
  text: string;
  /** The `id` rehype-slug gives the heading on the page (the same GitHub slugger, duplicates numbered alike). */
  id: string;
}

export interface GuideSection {
  /** The heading the text is under; null for the text before the first `##`. */
  heading: GuideHeading | null;
  /** The prose, Markdown marks removed, code blocks left out. */
  text: string;
  /** The code blocks' contents, searched but never shown as a snippet. */
  code: string;
}

export interface Guide {
  slug: GuideSlug;
  locale: Locale;
  title: string;
  summary: string;
  headings: GuideHeading[];
  sections: GuideSection[];
}

export interface CodeSample {
  lang: string;
  /** The fence's words after the language: `title="create-listing.ts"`, `test`. */
  meta: string;
  title: string | null;
  tested: boolean;
  code: string;
}

/** Inline Markdown to its text: `code`, **strong**, _emphasis_, [links](…) and the MDX comment marks. */
export function inlineText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, "$1$2")
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, "$1")
    .trim();
}

const fence = /^(`{3,})(\S*)\s*(.*)$/;

/** Reads a guide's MDX text into its title, summary, headings and sections (what the index, the contents and the search use). */
export function parseGuide(source: string, slug: GuideSlug, locale: Locale): Guide {
  const slugger = new GithubSlugger();
  let title = "";
  let summary = "";
  const headings: GuideHeading[] = [];
  const sections: GuideSection[] = [{ heading: null, text: "", code: "" }];
  let inFence: string | null = null;
  const paragraph: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length && title && !summary && headings.length === 0) summary = inlineText(paragraph.join(" "));
    paragraph.length = 0;
  };
  for (const line of source.split("\n")) {
    const section = sections[sections.length - 1];
    if (inFence !== null) {
      if (line.startsWith(inFence) && line.trim() === inFence) inFence = null;
      else section.code += `${line}\n`;
      continue;
    }
    const opening = fence.exec(line);
    if (opening) {
      flushParagraph();
      inFence = opening[1];
      continue;
    }
    const heading = /^(#{1,3})\s+(.+?)\s*#*$/.exec(line);
    if (heading) {
      flushParagraph();
      const text = inlineText(heading[2]);
      const id = slugger.slug(text);
      if (heading[1].length === 1) title = text;
      else {
        const entry: GuideHeading = { depth: heading[1].length as 2 | 3, text, id };
        headings.push(entry);
        sections.push({ heading: entry, text: "", code: "" });
      }
      continue;
    }
    // JSX lines (a component such as the error table) and MDX comments are not prose.
    if (/^\s*(<|\{\/\*|import |export )/.test(line)) continue;
    if (!line.trim()) {
      flushParagraph();
      continue;
    }
    paragraph.push(line.trim());
    const prose = inlineText(line.replace(/^\s*([-*+]|\d+\.|>|\|)\s*/, "").replace(/\s*\|\s*/g, " "));
    if (!/^[-:| ]+$/.test(prose)) section.text += `${prose}\n`;
  }
  flushParagraph();
  return { slug, locale, title, summary, headings, sections };
}

/** The file of `guidePath`, by a path the build's file tracing can scope to content/docs (next.config.ts includes it). */
export function guideSource(locale: Locale, slug: GuideSlug): string {
  return readFileSync(path.join(process.cwd(), "content", "docs", locale, `${slug}.mdx`), "utf8");
}

const parsed = new Map<string, Guide>();

/** A guide read and parsed once per process (the files change only with a deployment; `next dev` reloads the module). */
export function guide(locale: Locale, slug: GuideSlug): Guide {
  const cacheKey = `${locale}/${slug}`;
  let entry = parsed.get(cacheKey);
  if (!entry || process.env.NODE_ENV === "development") {
    entry = parseGuide(guideSource(locale, slug), slug, locale);
    parsed.set(cacheKey, entry);
  }
  return entry;
}

export const guides = (locale: Locale) => guideSlugs.map((slug) => guide(locale, slug));

/** The fenced code blocks of a guide's MDX, with their meta (tests run the ones marked `test`). */
export function codeSamples(source: string): CodeSample[] {
  const samples: CodeSample[] = [];
  let current: CodeSample | null = null;
  let marker = "";
  for (const line of source.split("\n")) {
    if (current) {
      if (line.trim() === marker) {
        samples.push(current);
        current = null;
      } else current.code += `${line}\n`;
      continue;
    }
    const opening = fence.exec(line);
    if (opening) {
      const meta = opening[3];
      marker = opening[1];
      current = {
        lang: opening[2],
        meta,
        title: /(?:^|\s)title="([^"]+)"/.exec(meta)?.[1] ?? null,
        tested: /(?:^|\s)test(?:\s|$)/.test(meta),
        code: "",
      };
    }
  }
  return samples;
}
