import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships WASM and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "@node-rs/argon2"],
  poweredByHeader: false,
  // Next's own build and dev output stays out of .data, which holds the embedded database.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default nextConfig;
