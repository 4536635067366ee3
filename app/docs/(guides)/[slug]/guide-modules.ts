import type { MDXContent } from "mdx/types";
import type { GuideSlug } from "@/lib/adapters/docs/guides";
import type { Locale } from "@/lib/base/i18n";

type Load = () => Promise<{ default: MDXContent }>;

/**
 * Each guide's compiled MDX, by language: imports the bundler can see (compiled at build time by
 * @next/mdx), loaded only for the page that shows them. The type makes a missing guide a compile error.
 */
export const guideModules: Record<Locale, Record<GuideSlug, Load>> = {
  en: {
    quickstart: () => import("@/content/docs/en/quickstart.mdx"),
    authentication: () => import("@/content/docs/en/authentication.mdx"),
    lifecycle: () => import("@/content/docs/en/lifecycle.mdx"),
    "merge-patch": () => import("@/content/docs/en/merge-patch.mdx"),
    feeds: () => import("@/content/docs/en/feeds.mdx"),
    idempotency: () => import("@/content/docs/en/idempotency.mdx"),
    pagination: () => import("@/content/docs/en/pagination.mdx"),
    photos: () => import("@/content/docs/en/photos.mdx"),
    webhooks: () => import("@/content/docs/en/webhooks.mdx"),
    oauth: () => import("@/content/docs/en/oauth.mdx"),
    "ai-agents": () => import("@/content/docs/en/ai-agents.mdx"),
    errors: () => import("@/content/docs/en/errors.mdx"),
    limits: () => import("@/content/docs/en/limits.mdx"),
    sandbox: () => import("@/content/docs/en/sandbox.mdx"),
    versioning: () => import("@/content/docs/en/versioning.mdx"),
    changelog: () => import("@/content/docs/en/changelog.mdx"),
  },
  ro: {
    quickstart: () => import("@/content/docs/ro/quickstart.mdx"),
    authentication: () => import("@/content/docs/ro/authentication.mdx"),
    lifecycle: () => import("@/content/docs/ro/lifecycle.mdx"),
    "merge-patch": () => import("@/content/docs/ro/merge-patch.mdx"),
    feeds: () => import("@/content/docs/ro/feeds.mdx"),
    idempotency: () => import("@/content/docs/ro/idempotency.mdx"),
    pagination: () => import("@/content/docs/ro/pagination.mdx"),
    photos: () => import("@/content/docs/ro/photos.mdx"),
    webhooks: () => import("@/content/docs/ro/webhooks.mdx"),
    oauth: () => import("@/content/docs/ro/oauth.mdx"),
    "ai-agents": () => import("@/content/docs/ro/ai-agents.mdx"),
    errors: () => import("@/content/docs/ro/errors.mdx"),
    limits: () => import("@/content/docs/ro/limits.mdx"),
    sandbox: () => import("@/content/docs/ro/sandbox.mdx"),
    versioning: () => import("@/content/docs/ro/versioning.mdx"),
    changelog: () => import("@/content/docs/ro/changelog.mdx"),
  },
};
