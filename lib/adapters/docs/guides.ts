/**
 * The guides of /docs, in the order the side navigation lists them. Each is a file per language,
 * content/docs/<language>/<slug>.mdx (tests/docs/guides.test.ts checks both exist with the same
 * structure); its first `# ` heading is its title and the paragraph after it its summary.
 */
export const guideSlugs = [
  "quickstart",
  "authentication",
  "lifecycle",
  "merge-patch",
  "feeds",
  "idempotency",
  "pagination",
  "photos",
  "webhooks",
  "oauth",
  "ai-agents",
  "errors",
  "limits",
  "sandbox",
  "versioning",
  "changelog",
] as const;

export type GuideSlug = (typeof guideSlugs)[number];

export const isGuideSlug = (slug: string): slug is GuideSlug => (guideSlugs as readonly string[]).includes(slug);
