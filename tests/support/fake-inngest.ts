import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { startHttpServer, type LocalServer, type ReceivedRequest } from "./local-http-server";

/**
 * A local stand-in for Inngest Cloud, playing its side of the protocol of the `inngest` SDK 4.x
 * (read from node_modules/inngest: `InngestCommHandler`, `helpers/net`, `helpers/functions`) against
 * the app's real `/api/inngest`. Point the app at it with `INNGEST_BASE_URL` = `url` and give it
 * `INNGEST_EVENT_KEY` / `INNGEST_SIGNING_KEY` = `eventKey` / `signingKey` (cloud mode: every call
 * to the app is signed and checked).
 *
 * - `POST /fn/register`: the out-of-band sync the SDK makes on `PUT /api/inngest`, authorised by the
 *   signing key's hash; it keeps the functions and their triggers.
 * - `POST /e/<event key>`: events (one or an array); an event `id` seen before is dropped, as Inngest
 *   does; each event starts a run of every function triggered by its name. A `ts` in the future
 *   delays the run until then.
 * - `runCron(slug)`: a cron function's run now, as its schedule would start it
 *   (`inngest/scheduled.timer`).
 *
 * A run calls `POST <step url>` with `{ event, events, steps, ctx }`, signed `t=<s>&s=<HMAC-SHA256 of
 * body + t>`, and checks the signature of the answer. 206 answers carry ops: `StepRun` results are
 * memoized and the function called again, `StepPlanned` steps are asked for one by one (`stepId`),
 * `Sleep` is waited for in real time (the app's sleeps are retry delays; a journey that meets one
 * would wait it out), `StepError` is retried and `StepFailed` handed back. 200 ends the run; 5xx or an
 * unreachable app is retried after 500 ms (Inngest backs off longer) up to the function's retries.
 * Not played: concurrency keys, rate limits, debounce, batching, cancellation, `if` expressions.
 */
export interface FakeInngestEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  ts: number;
}

export interface FakeInngestRun {
  id: string;
  functionId: string;
  event: FakeInngestEvent;
  status: "waiting" | "running" | "completed" | "failed";
  /** Each call to the app: the step asked for (`step` for the function) and the answer's status. */
  calls: { stepId: string; attempt: number; status: number }[];
  output?: unknown;
  error?: string;
}

interface FunctionConfig {
  id: string;
  triggers: ({ event: string } | { cron: string })[];
  steps: { step: { runtime: { url: string }; retries?: { attempts: number } } };
}

interface Op {
  op: string;
  id: string;
  name?: string;
  data?: unknown;
  error?: unknown;
}

export interface FakeInngest {
  /** The value for `INNGEST_BASE_URL`. */
  url: string;
  eventKey: string;
  signingKey: string;
  events: FakeInngestEvent[];
  runs: FakeInngestRun[];
  /** The app's functions from its last sync, by full id (`<app id>-<function id>`). */
  functionIds(): string[];
  /** Starts the cron function `<app id>-<slug>` now and resolves with its ended run. */
  runCron(slug: string): Promise<FakeInngestRun>;
  close(): Promise<void>;
}

/** JSON with keys sorted at every level (RFC 8785 for the values JSON carries), as the SDK's `canonicalize` signs a parsed body. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
  return `{${entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`)
    .join(",")}}`;
}

const bareKey = (signingKey: string) => signingKey.replace(/^signkey-\w+-/, "");

/** `X-Inngest-Signature` of a body at a time, as the SDK computes and checks it. */
export const inngestSignature = (body: string, signingKey: string, seconds: number): string =>
  `t=${seconds}&s=${createHmac("sha256", bareKey(signingKey))
    .update(body + seconds)
    .digest("hex")}`;

/** The bearer token the SDK syncs with: the key's prefix and the SHA-256 of its hex bytes. */
const hashedSigningKey = (signingKey: string) =>
  `${signingKey.match(/^signkey-\w+-/)?.[0] ?? ""}${createHash("sha256")
    .update(Buffer.from(bareKey(signingKey), "hex"))
    .digest("hex")}`;

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A duration as the SDK writes `step.sleep`'s (`1h30m`, `10s`), or a `step.sleepUntil` ISO date: milliseconds from now. */
function sleepMs(name: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
  const parts = [...name.matchAll(/(\d+)(ms|s|m|h|d|w)/g)];
  if (parts.length > 0) return parts.reduce((sum, [, count, unit]) => sum + Number(count) * units[unit], 0);
  return Math.max(0, Date.parse(name) - Date.now());
}

export async function startFakeInngest({ appId = "listings-platform" } = {}): Promise<FakeInngest> {
  const eventKey = `fake-event-key-${randomUUID()}`;
  const signingKey = `signkey-prod-${createHash("sha256").update(randomUUID()).digest("hex")}`;
  const events: FakeInngestEvent[] = [];
  const runs: FakeInngestRun[] = [];
  let functions: FunctionConfig[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function call(fn: FunctionConfig, stepId: string, body: string) {
    const url = new URL(fn.steps.step.runtime.url);
    url.searchParams.set("stepId", stepId);
    const seconds = Math.floor(Date.now() / 1000);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-inngest-signature": inngestSignature(body, signingKey, seconds) },
      body,
    }).catch(() => undefined);
    if (!response) return { status: 0, text: "", noRetry: false };
    const text = await response.text();
    // The SDK signs what it answers to a signed call: a result not signed with our key is not the app's.
    const signature = response.headers.get("x-inngest-signature");
    const [, t] = signature?.match(/t=(\d+)/) ?? [];
    if (
      (response.status === 200 || response.status === 206) &&
      (!signature || !sameText(signature, inngestSignature(text, signingKey, Number(t))))
    )
      throw new Error(`the answer of ${fn.id} to ${stepId} is not signed with the signing key (status ${response.status})`);
    return { status: response.status, text, noRetry: response.headers.get("x-inngest-no-retry") === "true" };
  }

  async function execute(run: FakeInngestRun, fn: FunctionConfig): Promise<void> {
    const maxAttempts = (fn.steps.step.retries?.attempts ?? 3) + 1;
    const steps: Record<string, { type: "data"; data: unknown } | { type: "error"; error: unknown }> = {};
    const stack: string[] = [];
    const planned: string[] = [];
    let attempt = 0;
    const done = (status: "completed" | "failed", detail: { output?: unknown; error?: string }): void => {
      Object.assign(run, { status, ...detail });
    };
    if (run.event.ts > Date.now()) await pause(run.event.ts - Date.now());
    run.status = "running";
    while (!closed) {
      const stepId = planned[0] ?? "step";
      const body = canonicalJson({
        version: 2,
        event: run.event,
        events: [run.event],
        steps,
        ctx: {
          run_id: run.id,
          attempt,
          max_attempts: maxAttempts,
          disable_immediate_execution: false,
          use_api: false,
          stack: { stack, current: stack.length },
        },
      });
      const answer = await call(fn, stepId, body);
      run.calls.push({ stepId, attempt, status: answer.status });
      if (answer.status === 200) return done("completed", { output: JSON.parse(answer.text) as unknown });
      if (answer.status === 206) {
        const memoize = (op: Op, result: (typeof steps)[string]) => {
          steps[op.id] = result;
          stack.push(op.id);
          if (planned[0] === op.id) planned.shift();
          attempt = 0;
        };
        for (const op of JSON.parse(answer.text) as Op[]) {
          if (op.op === "StepRun" || op.op === "Step") memoize(op, { type: "data", data: op.data ?? null });
          else if (op.op === "StepFailed") memoize(op, { type: "error", error: op.error });
          else if (op.op === "StepPlanned") {
            if (!planned.includes(op.id)) planned.push(op.id);
          } else if (op.op === "Sleep") {
            await pause(sleepMs(op.name ?? ""));
            memoize(op, { type: "data", data: null });
          } else if (op.op === "StepError") {
            if (++attempt >= maxAttempts) memoize(op, { type: "error", error: op.error });
            else await pause(500);
          } else return done("failed", { error: `the fake does not play the ${op.op} op` });
        }
        continue;
      }
      const retriable = (answer.status === 0 || answer.status >= 500) && !answer.noRetry;
      if (!retriable || ++attempt >= maxAttempts) return done("failed", { error: answer.text || `status ${answer.status}` });
      await pause(500);
    }
  }

  function start(fn: FunctionConfig, event: FakeInngestEvent): FakeInngestRun {
    const run: FakeInngestRun = { id: randomUUID(), functionId: fn.id, event, status: "waiting", calls: [] };
    runs.push(run);
    void execute(run, fn).catch((error: unknown) => Object.assign(run, { status: "failed", error: String(error) }));
    return run;
  }

  function receiveEvents(request: ReceivedRequest): { status: number; body: unknown } {
    if (request.url !== `/e/${eventKey}`) return { status: 401, body: { error: "Event key not found", status: 401 } };
    const sent = [JSON.parse(request.body) as Partial<FakeInngestEvent>].flat();
    const ids: string[] = [];
    for (const partial of sent) {
      const event: FakeInngestEvent = {
        id: partial.id ?? randomUUID(),
        name: partial.name!,
        data: partial.data ?? {},
        ts: partial.ts ?? Date.now(),
      };
      ids.push(event.id);
      // Inngest keeps an event id for 24 hours and drops a repeat.
      if (events.some((seen) => seen.id === event.id)) continue;
      events.push(event);
      for (const fn of functions) if (fn.triggers.some((trigger) => "event" in trigger && trigger.event === event.name)) start(fn, event);
    }
    return { status: 200, body: { ids, status: 200 } };
  }

  function register(request: ReceivedRequest): { status: number; body: unknown } {
    if (!sameText(request.headers.authorization ?? "", `Bearer ${hashedSigningKey(signingKey)}`))
      return { status: 401, body: { error: "the signing key's hash does not match", status: 401 } };
    functions = (JSON.parse(request.body) as { functions: FunctionConfig[] }).functions;
    return { status: 200, body: { ok: true, modified: true } };
  }

  const server: LocalServer = await startHttpServer((request, response) => {
    let answer: { status: number; body: unknown };
    try {
      if (request.method === "POST" && request.url.startsWith("/e/")) answer = receiveEvents(request);
      else if (request.method === "POST" && request.url.split("?")[0] === "/fn/register") answer = register(request);
      else answer = { status: 404, body: { error: "not played by the fake", status: 404 } };
    } catch (error) {
      answer = { status: 400, body: { error: String(error), status: 400 } };
    }
    response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });

  return {
    url: server.origin,
    eventKey,
    signingKey,
    events,
    runs,
    functionIds: () => functions.map((fn) => fn.id),
    async runCron(slug) {
      const fn = functions.find((candidate) => candidate.id === `${appId}-${slug}`);
      const cron = fn?.triggers.find((trigger): trigger is { cron: string } => "cron" in trigger)?.cron;
      if (!fn || !cron) throw new Error(`no cron function ${appId}-${slug} was synced`);
      const run = start(fn, { id: randomUUID(), name: "inngest/scheduled.timer", data: { cron }, ts: Date.now() });
      while (run.status === "waiting" || run.status === "running") await pause(100);
      return run;
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      await server.close();
    },
  };
}
