import { readdirSync } from "node:fs";
import next from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The layers (docs/development.md, "Where things live"): each zone's files never import from the folders in `from`.
// Paths are resolved first, so `@/…` aliases and relative imports are caught alike. lib/ is four
// layers, each importing only those beneath it: base < infra < domain < adapters (and db/ below all).
const layers = [
  { name: "base", above: ["./lib/infra", "./lib/domain", "./lib/adapters"] },
  { name: "infra", above: ["./lib/domain", "./lib/adapters"] },
  { name: "domain", above: ["./lib/adapters"] },
];

// A domain area's internal/ is its own: other areas, the adapters, app/ and the rest use what the
// area exports beside it. Tests and benchmarks may reach a helper directly.
const domainAreas = readdirSync(new URL("./lib/domain", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const internalZones = domainAreas.map((area) => ({
  target: ["./!(lib|tests|bench)/**", "./*.{ts,tsx,mjs}", "./lib/!(domain)/**", `./lib/domain/!(${area})/**`],
  from: `./lib/domain/${area}/internal`,
  message: `lib/domain/${area}/internal/ is private to that area: use what lib/domain/${area} exports beside it.`,
}));

// A module inside an area (lib/domain/webhooks/delivery) may have an internal/ of its own, private to that module.
const moduleInternalZones = domainAreas.flatMap((area) =>
  readdirSync(new URL(`./lib/domain/${area}`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "internal")
    .filter((entry) => readdirSync(new URL(`./lib/domain/${area}/${entry.name}`, import.meta.url)).includes("internal"))
    .map(({ name }) => ({
      target: [
        "./!(lib|tests|bench)/**",
        "./*.{ts,tsx,mjs}",
        "./lib/!(domain)/**",
        `./lib/domain/!(${area})/**`,
        `./lib/domain/${area}/!(${name})/**`,
        `./lib/domain/${area}/*.{ts,tsx}`,
      ],
      from: `./lib/domain/${area}/${name}/internal`,
      message: `lib/domain/${area}/${name}/internal/ is private to that module: use what lib/domain/${area}/${name} exports from its index.`,
    })),
);

// The adapters drive the domain side by side and never import each other: what two of them share
// lives beneath them (lib/base, lib/infra, lib/domain), as the client address and the upload's size
// rule do. Route handlers belong to the HTTP API wherever they sit in app/; app/'s pages, layouts and
// server actions and components/ are the portal's.
const adapters = {
  "HTTP API": ["./lib/adapters/http/**", "./app/api/**", "./app/**/route.ts"],
  portal: ["./lib/adapters/portal/**", "./components/**", "./app/!(api)/**/!(route).{ts,tsx}", "./app/*.{ts,tsx}"],
  CLI: ["./lib/adapters/cli/**"],
  worker: ["./lib/adapters/worker/**"],
};
const adapterZones = Object.entries(adapters).map(([name, files]) => ({
  target: files,
  from: Object.entries(adapters).flatMap(([other, otherFiles]) => (other === name ? [] : otherFiles)),
  message: `The ${name} adapter imports no other adapter (the HTTP API, the portal, the CLI, the worker): what two share lives beneath them.`,
}));

const layering = {
  files: ["**/*.{ts,tsx,mts,cts,js,mjs}"],
  rules: {
    "import/no-restricted-paths": [
      "error",
      {
        basePath: import.meta.dirname,
        zones: [
          {
            target: "./lib",
            from: ["./app", "./inngest", "./components"],
            message:
              "lib/ never imports app/, inngest/ or components/: they call lib/ (jobs reach Inngest through the dispatcher inngest/ registers).",
          },
          {
            target: "./db",
            from: ["./app", "./inngest", "./components"],
            message: "db/ is the bottom layer: settings are passed in (configureDatabase), never read from lib/.",
          },
          {
            // The process registry imports nothing: db/ keeps its process-wide values there like every layer.
            target: "./db",
            from: "./lib",
            except: ["./base/process-registry.ts"],
            message: "db/ is the bottom layer: settings are passed in (configureDatabase), never read from lib/.",
          },
          {
            target: "./lib/base/process-registry.ts",
            from: ["./lib", "./db", "./app", "./inngest", "./components"],
            message: "The process registry imports nothing, so that every layer, db/ included, may use it.",
          },
          { target: "./components", from: "./db", message: "Components get their data from pages, through services." },
          {
            target: "./components",
            from: "./app",
            message: "Components are rendered by app/'s pages and layouts, which pass them what they need (server actions included).",
          },
          ...adapterZones,
          ...layers.map(({ name, above }) => ({
            target: `./lib/${name}`,
            from: above,
            message: `lib/${name} imports only the layers beneath it (base < infra < domain < adapters).`,
          })),
          ...internalZones,
          ...moduleInternalZones,
          {
            target: "./app/**/{page,layout,template,default,loading,error,global-error,not-found}.tsx",
            from: "./db",
            message: "Pages and layouts go through services (lib/domain), not the database.",
          },
        ],
      },
    ],
  },
};

// Routes and pages act for their caller: the contexts that reach every account's data (jobs, the
// operator's CLI, the seed) are not theirs to build, so an unscoped service call cannot slip in.
const callerScope = {
  files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        paths: [
          {
            name: "@/lib/base/context",
            importNames: ["systemContext", "operatorContext", "asAccount"],
            message:
              "Routes and pages use the caller's context (the endpoint wrapper's ctx, the portal session's): staff contexts belong to jobs, the CLI and the seed.",
          },
        ],
      },
    ],
  },
};

// lib/base serves every layer and opens no database: its contexts are handed one by whoever builds
// them (the adapters, jobs, the seed); it may name db's types.
const baseOpensNoDatabase = {
  files: ["lib/base/**/*.{ts,tsx}"],
  rules: {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      {
        paths: ["@/db", "@/db/client", "@/db/migrate", "@/db/throwaway"].map((name) => ({
          name,
          allowTypeImports: true,
          message: "lib/base opens no database: take one as a parameter (a context's `database`), naming only db's types here.",
        })),
      },
    ],
  },
};

const config = [
  ...next,
  ...nextTs,
  layering,
  callerScope,
  baseOpensNoDatabase,
  { rules: { "@typescript-eslint/no-unused-vars": "error" } },
  // Tests read response bodies member by member; typing each body would only restate the assertions.
  { files: ["tests/**/*.ts", "e2e/**/*.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  { ignores: [".next/**", "**/.next/**", ".next-*/**", ".data/**", "db/migrations/**", "next-env.d.ts", "sdk/dist/**"] },
];

export default config;
