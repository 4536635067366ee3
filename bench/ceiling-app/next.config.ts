import path from "node:path";
import type { NextConfig } from "next";

// The route imports `bench/bare-work.ts` from outside this folder: the repository is the root.
const root = path.resolve(import.meta.dirname, "../..");

const nextConfig: NextConfig = {
  turbopack: { root },
  outputFileTracingRoot: root,
  poweredByHeader: false,
};

export default nextConfig;
