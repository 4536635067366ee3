import http from "node:http";
import { config } from "@/lib/base/config";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";

/*
 * `npm run dev`'s first minutes. Next.js compiles a route at its first request and answers no request
 * before instrumentation's register() (boot) has returned. The seed's webhooks deliver to this very
 * server (the sandbox's receiver, `/sandbox/webhooks/receive/{token}`), so when the job runner started
 * with boot, their deliveries were the first requests: they waited on compiles past the receiver's 10
 * seconds, were cut off and came back as retries, each driving compiles of its own while a reader's
 * first page was compiling too. So under `next dev` the web server, once register() has returned,
 * first requests the routes of the quickstart from itself, one at a time; then it prints
 * `Sandbox ready` with the demo key; then it starts the job runner, whose first deliveries find the
 * receiver compiled. The API reference, which only the quickstart's end links and whose compile
 * alone takes about 40 s on two cores, is compiled last, after the ready line.
 */

/**
 * One route of the app, as its folder names it under app/ (route groups left out); each dynamic
 * segment is filled with `warm-up`: a route compiles whatever it answers (a signed-out page's
 * redirect, a POST-only route's 405, an unknown code's 404).
 */
export interface WarmUpRoute {
  route: string;
  /** Where the quickstart (content/docs/<language>/quickstart.mdx) has the reader use it. */
  use: string;
}

/** Compiled before `Sandbox ready`: what the quickstart opens and calls, in its order. */
export const quickstartRoutes: readonly WarmUpRoute[] = [
  { route: "/", use: "1: open the portal" },
  { route: "/docs", use: "the guides, where the quickstart is read" },
  { route: "/docs/[slug]", use: "the quickstart and every guide it links" },
  { route: "/login", use: "2: sign in" },
  { route: "/settings/api/keys", use: "2: API settings → API keys" },
  { route: "/settings/api/webhooks", use: "3: API settings → Webhooks; 4: Ping the address" },
  { route: "/api/v1/ping", use: "the `try` line printed with the key" },
  { route: "/api/v1/listings", use: "5: POST /listings" },
  { route: "/sandbox/sample-photo.jpg", use: "6: the sample photo" },
  { route: "/api/v1/uploads", use: "6: POST /uploads" },
  { route: "/api/v1/uploads/[key]", use: "6: PUT to the pre-signed URL" },
  { route: "/api/v1/listings/[code]/photos", use: "6: PUT /listings/{code}/photos" },
  { route: "/api/v1/sandbox/listings/[code]/moderation", use: "7: publish" },
  { route: "/listings/[code]", use: "7: open the listing's url" },
  { route: "/blobs/[...key]", use: "7: the listing's photo on its page" },
  { route: "/sandbox/webhooks/receive/[token]", use: "the sandbox's receiver, where the seed's webhooks deliver" },
  { route: "/sandbox/webhooks", use: "the receiver's page" },
];

/** Compiled after `Sandbox ready`, in the background: linked at the quickstart's end (What next). */
export const linkedRoutes: readonly WarmUpRoute[] = [{ route: "/docs/api", use: "What next: the API reference" }];

/** The path requested for a route: its dynamic segments filled. */
export const warmUpPath = (route: string): string => route.replace(/\[(\.\.\.)?[^\]]+\]/g, "warm-up");

/**
 * How long one route may take to answer: a cold compile on a busy machine, with margin (on two cores
 * shared with other work, at a load of 20, the guides' page took 115 s and the API reference over 300 s).
 */
const routeTimeoutMs = 600_000;

interface WarmUp {
  controller: AbortController;
  done: Promise<void>;
}

const current = processSlot<WarmUp>("devWarmUp");

/**
 * Starts the warm-up in the background and returns at once: register() must return before this
 * server answers any of its requests. `announce` prints the ready line once the quickstart's routes
 * are compiled, `then` starts what waited for them (the job runner); neither runs once `stopDevWarmUp`
 * has been called.
 */
export function startDevWarmUp({
  origin = config().APP_URL,
  announce,
  then,
}: {
  origin?: string;
  announce: () => Promise<void>;
  then: () => Promise<void> | void;
}): void {
  if (current.get()) return;
  const controller = new AbortController();
  const done = (async () => {
    const began = Date.now();
    logger.info("dev: compiling the quickstart's routes before the sandbox is ready", { routes: quickstartRoutes.length });
    await requestAll(origin, quickstartRoutes, controller.signal);
    if (controller.signal.aborted) return;
    logger.info("dev: the quickstart's routes are compiled", { routes: quickstartRoutes.length, seconds: secondsSince(began) });
    await announce();
    if (controller.signal.aborted) return;
    await then();
    await requestAll(origin, linkedRoutes, controller.signal);
  })().catch((error: unknown) => logger.error("dev: warm-up failed", { error }));
  current.set({ controller, done });
}

/** Ends the warm-up (shutdown): its request in flight is abandoned, and what comes after it does not run. */
export async function stopDevWarmUp(): Promise<void> {
  const warmUp = current.get();
  if (!warmUp) return;
  warmUp.controller.abort();
  await warmUp.done;
  current.set(undefined);
}

async function requestAll(origin: string, routes: readonly WarmUpRoute[], stop: AbortSignal): Promise<void> {
  const base = origin.replace(/\/+$/, "");
  for (const { route } of routes) {
    if (stop.aborted) return;
    const began = Date.now();
    try {
      const status = await answered(`${base}${warmUpPath(route)}`, AbortSignal.any([stop, AbortSignal.timeout(routeTimeoutMs)]));
      // A refusal is expected (no session, no key, no such listing); a 5xx is a route that failed to compile or render.
      if (status >= 500) logger.warn("dev: warm-up request failed", { route, status });
      else logger.debug("dev: route compiled", { route, status, seconds: secondsSince(began) });
    } catch (error) {
      if (stop.aborted) return;
      // The reader's own first request compiles it then; the warm-up goes on with the next.
      logger.warn("dev: warm-up request not answered", { route, error });
    }
  }
}

/**
 * One GET, its answer read to the end (a page streams, and its rendering, with any compile it needs,
 * ends with the body). Through node:http rather than fetch, whose client gives up on an answer
 * whose headers take over 300 s.
 */
function answered(url: string, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { signal }, (response) => {
      response.on("error", reject);
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.resume();
    });
    request.on("error", reject);
  });
}

const secondsSince = (began: number): number => Math.round((Date.now() - began) / 100) / 10;
