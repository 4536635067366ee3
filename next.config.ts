import type { NextConfig } from "next";
import path from "node:path";
import createMDX from "@next/mdx";

// `.ci/run` builds a clean clone right after `npm run typecheck` has passed on the same tree, and sets
// CI_CLEAN_BUILD=1: the build then neither type-checks again nor writes Turbopack's build cache, which
// only a later build in the same folder would read (78 s → 34 s on the 2-core machine). Every other
// build (yours, a deployment's) does both.
const ciCleanBuild = process.env.CI_CLEAN_BUILD === "1";

const nextConfig: NextConfig = {
  // The release bundle (docs/operations.md, Deploy (self-hosted)): `.next/standalone` holds server.js and only the files it
  // needs, node_modules included; scripts/release-bundle.ts completes it.
  output: "standalone",
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2"],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: ciCleanBuild },
  experimental: { turbopackFileSystemCacheForBuild: !ciCleanBuild },
  // The guides' index, table of contents and search read the MDX files themselves (lib/adapters/docs).
  outputFileTracingIncludes: { "/docs/**": ["./content/docs/**/*.mdx"] },
};

// The guides under /docs (content/docs/<language>/<guide>.mdx), compiled at build time. Plugins are named
// by string (our own by its absolute path): Turbopack passes loader options across processes, so they must be
// serialisable.
const withMDX = createMDX({
  options: {
    remarkPlugins: ["remark-gfm"],
    rehypePlugins: ["rehype-slug", ["rehype-highlight", { detect: false }], path.resolve("lib/adapters/docs/rehype-code-title.mjs")],
  },
});

export default withMDX(nextConfig);
