/**
 * `npm run build`'s second half (docs/operations.md, Deploy (self-hosted)): completes Next.js's `.next/standalone`
 * into the release bundle, a folder that runs with `node server.js` and `node cli.mjs <command>`
 * without the repository (and `node worker.mjs`, the job runner without the web server). Next.js
 * copies server.js, the traced server files and their node_modules; it leaves out the static files
 * and `public/` (served by a CDN in its own deployments), and it knows nothing of the CLI and the worker.
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";

const standalone = path.resolve(".next/standalone");
if (!existsSync(path.join(standalone, "server.js"))) {
  console.error("release-bundle: .next/standalone/server.js is missing: run `next build` first (next.config.ts sets output: standalone)");
  process.exit(1);
}

cpSync(".next/static", path.join(standalone, ".next/static"), { recursive: true });
if (existsSync("public")) cpSync("public", path.join(standalone, "public"), { recursive: true });
// db:migrate reads them from the working folder (db/migrate.ts); the server's trace holds them today, the copy makes sure.
cpSync("db/migrations", path.join(standalone, "db/migrations"), { recursive: true });
// The photo renderer is started by path from the working folder (lib/domain/media/internal/renderer.ts), never bundled.
const renderer = "lib/domain/media/internal/render-process.mjs";
cpSync(renderer, path.join(standalone, renderer));

/**
 * The packages the CLI leaves to node_modules: native code and WASM, which a bundle cannot carry.
 * The server uses each of them too, so Next's trace has put them in the bundle's node_modules
 * (checked below); everything else the CLI imports is bundled into cli.mjs.
 */
const external = ["sharp", "@node-rs/argon2", "@electric-sql/pglite"];

await build({
  // The worker (`npm run worker`) is started the same way, from the same folder.
  entryPoints: { cli: "scripts/cli.ts", worker: "scripts/worker.ts" },
  outdir: standalone,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: `node${JSON.parse(readFileSync("package.json", "utf8")).engines.node.replace(/^>=/, "")}`,
  external,
  logLevel: "warning",
  banner: {
    js: [
      // Bundled CommonJS packages call require() for Node's own modules, which an ES module lacks.
      'import { createRequire as createRequireOfTheCli } from "node:module";',
      'import { fileURLToPath as fileURLToPathOfTheCli } from "node:url";',
      "const require = createRequireOfTheCli(import.meta.url);",
      // Like server.js, the CLI works in the bundle's folder, wherever it is started from: db/migrations,
      // and the embedded database's default .data/pglite, are the server's.
      'process.chdir(fileURLToPathOfTheCli(new URL(".", import.meta.url)));',
    ].join("\n"),
  },
});

const requireInBundle = createRequire(path.join(standalone, "cli.mjs"));
const missing = external.filter((name) => {
  try {
    requireInBundle.resolve(name);
    return false;
  } catch {
    return true;
  }
});
if (missing.length) {
  console.error(`release-bundle: the bundle's node_modules lacks ${missing.join(", ")}, which cli.mjs imports`);
  process.exit(1);
}
console.log(
  `release-bundle: ${path.relative(process.cwd(), standalone)} runs with \`node server.js\`, \`node worker.mjs\` and \`node cli.mjs <command>\``,
);
