import { readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { guideSource } from "@/lib/adapters/docs/content";
import { linkedRoutes, quickstartRoutes, startDevWarmUp, stopDevWarmUp, warmUpPath } from "@/lib/adapters/lifecycle/dev-warm-up";
import { startHttpServer, type LocalServer } from "../support/local-http-server";

/** Every route of the app as its folders name it (route groups and private folders left out): `/listings/[code]`. */
function appRoutes(folder = path.resolve("app"), route = ""): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    // A private folder (`_form`) is no segment of a route.
    if (entry.isDirectory() && entry.name.startsWith("_")) continue;
    if (entry.isDirectory()) {
      const segment = /^\(.*\)$/.test(entry.name) ? "" : `/${entry.name}`;
      found.push(...appRoutes(path.join(folder, entry.name), route + segment));
    } else if (/^(page|route)\.tsx?$/.test(entry.name)) found.push(route || "/");
  }
  return found;
}

/** The route a path reaches: of those matching, the one with the most fixed segments (`/docs/api` before `/docs/[slug]`). */
function routeOf(pathname: string, routes: string[]): string | undefined {
  const parts = pathname.split("/").filter(Boolean);
  const matches = routes.filter((route) => {
    const segments = route.split("/").filter(Boolean);
    if (segments.at(-1)?.startsWith("[..."))
      return parts.length >= segments.length && segments.slice(0, -1).every((s, i) => fits(s, parts[i]));
    return segments.length === parts.length && segments.every((s, i) => fits(s, parts[i]));
  });
  const fixed = (route: string) => route.split("/").filter((s) => s && !s.startsWith("[")).length;
  return matches.sort((a, b) => fixed(b) - fixed(a))[0];
}
const fits = (segment: string, part: string | undefined) => part !== undefined && (segment.startsWith("[") || segment === part);

/** The paths a guide names on the sandbox's origin: its URLs (a shell variable standing for a segment) and its links. */
function namedPaths(source: string): string[] {
  const urls = [...source.matchAll(/http:\/\/localhost:3000([^\s"'`)\]]*)/g)].map((match) => match[1].split("?")[0] || "/");
  const links = [...source.matchAll(/\]\((\/[^)\s#]*)/g)].map((match) => match[1]);
  return (
    [...urls, ...links]
      .map((named) => named.replace(/\$\([^)]*\)|\$\{?\w+\}?/g, "x"))
      // The API's base address (the client's `baseUrl`, "the API answers at"), not a route of its own.
      .filter((named) => named !== "/api/v1")
  );
}

/**
 * What the quickstart sends the reader to without writing its address: the pages its steps name,
 * the upload's pre-signed URL, the listing's page and photo, and what the start-up itself uses (the
 * key's `try` line, the sandbox's receiver the seed's webhooks deliver to, and its page).
 */
const reachedOtherwise = [
  "/docs",
  "/login",
  "/settings/api/keys",
  "/settings/api/webhooks",
  "/api/v1/uploads/[key]",
  "/listings/[code]",
  "/blobs/[...key]",
  "/api/v1/ping",
  "/sandbox/webhooks/receive/[token]",
  "/sandbox/webhooks",
];

describe("npm run dev's warm-up", () => {
  it("compiles exactly the routes of the quickstart, in both languages, each an existing route", () => {
    const routes = appRoutes();
    const warmed = [...quickstartRoutes, ...linkedRoutes].map((entry) => entry.route);
    for (const route of warmed) expect(routes).toContain(route);
    expect(new Set(warmed).size).toBe(warmed.length);
    for (const locale of ["en", "ro"] as const) {
      const named = namedPaths(guideSource(locale, "quickstart")).map((named) => {
        const route = routeOf(named, routes);
        if (!route) throw new Error(`the ${locale} quickstart names ${named}, which is no route of the app`);
        return route;
      });
      expect(new Set([...named, ...reachedOtherwise])).toEqual(new Set(warmed));
    }
    // The API reference, linked only at the end, comes after the ready line.
    expect(linkedRoutes.map((entry) => entry.route)).toEqual(["/docs/api"]);
  });

  it("fills each dynamic segment of a route", () => {
    expect(warmUpPath("/api/v1/listings/[code]/photos")).toBe("/api/v1/listings/warm-up/photos");
    expect(warmUpPath("/blobs/[...key]")).toBe("/blobs/warm-up");
    expect(warmUpPath("/login")).toBe("/login");
  });
});

describe("the warm-up's order", () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await stopDevWarmUp();
    await server?.close();
    server = undefined;
  });

  /** A stand-in for the dev server, answering as the routes would: a page or a refusal, one route failing. */
  async function devServer(hold?: { path: string; until: Promise<void> }) {
    const started = await startHttpServer((request, res) => {
      const answer = () => res.writeHead(request.url === "/sandbox/webhooks" ? 500 : 200).end("compiled");
      if (hold && request.url === hold.path) void hold.until.then(answer);
      else answer();
    });
    server = started;
    return started;
  }

  it("requests every quickstart route, one at a time, before the ready line; then starts the runner; then the linked routes", async () => {
    const { origin, received } = await devServer();
    const said: string[] = [];
    let ended: () => void = () => {};
    const finished = new Promise<void>((resolve) => (ended = resolve));
    startDevWarmUp({
      origin,
      announce: async () => void said.push(`announce after ${received.length}`),
      then: () => {
        said.push(`runner after ${received.length}`);
        setTimeout(ended, 50);
      },
    });
    await finished;
    await expect.poll(() => received.length).toBe(quickstartRoutes.length + linkedRoutes.length);

    expect(received.map((request) => request.url)).toEqual([...quickstartRoutes, ...linkedRoutes].map((entry) => warmUpPath(entry.route)));
    expect(received.every((request) => request.method === "GET")).toBe(true);
    // A route that fails (500) is said and passed: the ready line still comes, after every quickstart route.
    expect(said).toEqual([`announce after ${quickstartRoutes.length}`, `runner after ${quickstartRoutes.length}`]);
  });

  it("holds the ready line and the runner while a route compiles, and a stop during the warm-up runs neither", async () => {
    let compiled: () => void = () => {};
    const receiver = "/sandbox/webhooks/receive/warm-up";
    const { origin, received } = await devServer({ path: receiver, until: new Promise((resolve) => (compiled = resolve)) });
    const said: string[] = [];
    startDevWarmUp({ origin, announce: async () => void said.push("announce"), then: () => void said.push("runner") });
    await expect.poll(() => received.map((request) => request.url)).toContain(receiver);

    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(said).toEqual([]);
    await stopDevWarmUp();
    compiled();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(said).toEqual([]);
    expect(received.at(-1)!.url).toBe(receiver);
  });
});
