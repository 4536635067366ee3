import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** A link of a Markdown file that a clone of the repository cannot follow, and why. */
export interface BrokenLink {
  file: string;
  target: string;
  problem: string;
}

// Addresses on the web are not files of the repository: only paths are checked.
const webAddress = /^[a-z][a-z0-9+.-]*:/i;

/** The file without its fenced blocks, which hold examples (a `# comment` in a shell sample is no heading). */
function withoutFencedBlocks(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The text a reader sees as prose: fenced blocks and inline code hold examples, not links. */
function prose(markdown: string): string {
  return withoutFencedBlocks(markdown).replace(/`[^`\n]*`/g, "");
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutFencedBlocks(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** The targets of a file's inline links and images, `[text](target)`, as written. */
export function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(([, target]) => target);
}

/**
 * The links of `files` (paths relative to `root`) that leave the repository, name a file it lacks,
 * or name a heading the file it points to lacks.
 */
export function brokenLinks(root: string, files: string[]): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(readFileSync(file, "utf8")));
    return anchorsOf.get(file)!;
  };
  for (const file of files) {
    const absolute = path.join(root, file);
    for (const target of linkTargets(readFileSync(absolute, "utf8"))) {
      if (webAddress.test(target)) continue;
      const [pathPart, anchor] = target.split("#", 2);
      const resolved = pathPart
        ? path.resolve(pathPart.startsWith("/") ? root : path.dirname(absolute), decodeURIComponent(pathPart).replace(/^\//, ""))
        : absolute;
      const inRepository = path.relative(root, resolved);
      if (inRepository.startsWith("..") || path.isAbsolute(inRepository)) {
        broken.push({ file, target, problem: "points outside the repository" });
      } else if (!existsSync(resolved)) {
        broken.push({ file, target, problem: "names a file the repository lacks" });
      } else if (anchor && statSync(resolved).isFile() && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) {
        broken.push({ file, target, problem: `names a heading ${path.relative(root, resolved)} lacks` });
      }
    }
  }
  return broken;
}
