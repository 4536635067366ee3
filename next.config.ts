import type { NextConfig } from "next";

// `.ci/run` builds a clean clone right after `npm run typecheck` has passed on the same tree, and sets
// CI_CLEAN_BUILD=1: the build then neither type-checks again nor writes Turbopack's build cache, which
// only a later build in the same folder would read (78 s → 34 s on the 2-core machine). Every other
// build (yours, a deployment's) does both.
const ciCleanBuild = process.env.CI_CLEAN_BUILD === "1";

const nextConfig: NextConfig = {
  // The release bundle (README, Deploy (self-hosted)): `.next/standalone` holds server.js and only the files it
  // needs, node_modules included; scripts/release-bundle.ts completes it.
  output: "standalone",
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2"],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: ciCleanBuild },
  experimental: { turbopackFileSystemCacheForBuild: !ciCleanBuild },
};

export default nextConfig;
