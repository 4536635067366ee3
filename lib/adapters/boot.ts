import { closeDatabase, configureDatabase, database as openedDatabase, type DatabaseSettings } from "@/db";
import { config, databaseSettings, inngestConfigured } from "@/lib/base/config";
import { exitOnUnpatchedDriver } from "@/db/driver-patch";
import { logger } from "@/lib/base/logger";
import { unsupportedNodeMessage } from "@/lib/base/node-version";
import { processSlot } from "@/lib/base/process-registry";

/**
 * The composition root: what a process holds, started and stopped in one place. Each entry calls
 * `boot()` once: instrumentation.ts (`web`, the Next.js server), scripts/worker.ts (`worker`: the job
 * runner and the delivery lane without the web server) and scripts/cli.ts (`cli`: a process that
 * runs commands and stops; the test workers start the same way, tests/setup/each-file.ts).
 *
 * The parts start stage by stage, in the order below, and stop in the reverse order, the parts of a
 * stage together; a part a role does not hold is skipped. A part's modules are loaded when it
 * starts: a process loads only what it holds (the CLI and the test workers nothing of the server's,
 * and tracing's SDK only when it is on). The values they hold live in the process registry
 * (lib/base/process-registry.ts), so the route handlers' copy of a module finds what boot() started
 * from instrumentation's.
 *
 * Graceful shutdown on SIGTERM (and SIGINT), for `web` and `worker`, within `SHUTDOWN_GRACE_MS` of the signal:
 * 1. readiness answers 503 from now on (`/api/health/ready`), so a load balancer stops sending;
 * 2. the HTTP server stops accepting connections, and every answer closes its connection; the
 *    requests waiting for events (`GET /events?wait=`) answer at once with the empty page; the
 *    requests in flight end while the job runner stops claiming: its job in progress (a photo list)
 *    finishes, and the delivery lane gives back the deliveries it claimed ahead and waits for the
 *    attempts in flight;
 * 3. the operator channel closes, the photo renderer ends, the API log's buffered entries are
 *    written, the database is closed, and traces and metrics are sent when tracing is on, within what
 *    is left of the grace (at least `telemetryLeastMs`; what is not sent by then is dropped); exit 0.
 * Past the grace the jobs still running are given back (their rows due again at once, a photo
 * list's lease released) and the rest is logged and left: a request is cut off, a delivery's claim
 * ends on its own and another instance takes it up (docs/operations.md, Health and shutdown).
 *
 * Next.js's own handler (`start-server.js`, unless `NEXT_MANUAL_SIG_HANDLE` is set) would close the
 * server and exit 143 as soon as the connections end, before the runner, the API log and the
 * database are done; this one replaces it.
 */
export type ProcessRole = "web" | "worker" | "cli";

export interface BootOptions {
  role: ProcessRole;
  /** Registers Inngest's dispatchers when Inngest runs the jobs (inngest/dispatch.ts, which lib/ does not import: the entry hands it over). */
  registerDispatchers?: () => void;
  /** What differs from the configuration's database settings (the CLI's db:migrate opens the database unmigrated; tests load a template). */
  database?: Partial<DatabaseSettings>;
}

export interface BootedProcess {
  role: ProcessRole;
  /** Stops every part started, in the reverse order; `deadline` (epoch ms) bounds the drains. */
  stop(deadline?: number): Promise<void>;
}

interface Part {
  name: string;
  roles: readonly ProcessRole[];
  /** Whether this process holds it, when that depends on the configuration. */
  wanted?: (options: BootOptions) => boolean;
  start(options: BootOptions): unknown;
  stop?(deadline: number): Promise<void> | void;
}

/** What sending the last traces and metrics gets when the drain has used the whole grace: enough for a collector that answers. */
const telemetryLeastMs = 1000;

const servers = ["web", "worker"] as const;

/**
 * Under `next dev` the web server compiles the quickstart's routes before anything sends it requests
 * (lifecycle/dev-warm-up.ts), and starts the job runner after that, not with the rest of boot.
 */
const warmsUpFirst = ({ role }: BootOptions): boolean => role === "web" && config().NODE_ENV === "development";

/** Stops the job runner within the grace, saying so when deliveries or jobs were still running at its end. */
async function stopRunner(deadline: number): Promise<void> {
  const { stopJobRunner } = await import("./worker/runner");
  if ((await stopJobRunner({ by: deadline })) === "late")
    logger.warn("shutdown grace over with jobs or webhook deliveries running; what was not given back ends on its own");
}

const keepAlive = processSlot<NodeJS.Timeout>("workerKeepAlive");
const everyRole = ["web", "worker", "cli"] as const;

const stages: readonly (readonly Part[])[] = [
  [
    {
      // First, so everything after it is traced; the SDK is imported only when it is wanted
      // (docs/operations.md, Tracing and metrics): unset, nothing is loaded and the OpenTelemetry API stays a no-op.
      name: "telemetry",
      roles: servers,
      wanted: () => Boolean(config().OTEL_EXPORTER_OTLP_ENDPOINT),
      start: async () => (await import("@/lib/adapters/telemetry")).startTelemetry(),
      stop: async (deadline) => {
        const { stopTelemetry } = await import("@/lib/adapters/telemetry");
        if ((await stopTelemetry(Math.max(deadline - Date.now(), telemetryLeastMs))) === "dropped")
          logger.warn("shutdown: traces and metrics not sent within the grace; they are dropped");
      },
    },
  ],
  [
    {
      // A server opens it now, so that a database it cannot use stops it at start; the CLI opens it
      // at its first command that needs it (a command may go to the server holding the embedded one).
      name: "database",
      roles: everyRole,
      start: async ({ role, database }) => {
        if (role === "cli") configureDatabase(() => ({ ...databaseSettings(), ...database }));
        else await (await import("./startup")).openDatabaseOrExit(database);
      },
      stop: () => closeDatabase(),
    },
  ],
  [
    { name: "API log", roles: servers, start: () => undefined, stop: async () => (await import("./http/api-log")).flushApiLog() },
    // Started at the first photo; ended once no job can send it one.
    {
      name: "photo renderer",
      roles: everyRole,
      start: () => undefined,
      stop: async () => (await import("@/lib/domain/media/stop-photo-renderer")).stopPhotoRenderer(),
    },
  ],
  [
    {
      // Before anything can enqueue: each committed row is then sent to Inngest as it commits.
      name: "job dispatchers",
      roles: everyRole,
      start: ({ registerDispatchers }) => registerDispatchers?.(),
    },
    {
      // PGlite is opened by one process only: the one holding a folder runs the CLI's commands.
      name: "operator channel",
      roles: servers,
      wanted: () => !config().DATABASE_URL && !config().PGLITE_DIR.startsWith("memory://"),
      start: async () => (await import("./cli/operator-channel")).startOperatorChannel({ dataDir: config().dataDir }),
      stop: async () => (await import("./cli/operator-channel")).stopOperatorChannel(),
    },
    { name: "sandbox", roles: servers, start: async () => (await import("./startup")).prepareSandbox(await openedDatabase()) },
  ],
  [
    {
      // Jobs run on Inngest when it is configured, or else in the embedded runner, which polls the
      // table, with the delivery lane woken at each commit. Under `next dev`, the warm-up starts it.
      name: "job runner",
      roles: servers,
      wanted: (options) => !warmsUpFirst(options),
      start: async () => (await import("./worker/runner")).startJobRunner(),
      stop: stopRunner,
    },
    {
      name: "HTTP traffic",
      roles: ["web"],
      start: async () => {
        (await import("./http/forbidden-methods")).refuseForbiddenMethods();
        (await import("./lifecycle/http-traffic")).watchHttpTraffic();
      },
      stop: async (deadline) => {
        const { requestsEnded, stopAcceptingConnections } = await import("./lifecycle/http-traffic");
        stopAcceptingConnections();
        const left = await requestsEnded(deadline);
        if (left > 0) logger.warn("shutdown grace over with requests in flight; they are cut off", { requests: left });
      },
    },
    {
      name: "event waits",
      roles: ["web"],
      start: () => undefined,
      stop: async () => (await import("@/lib/domain/events")).endEventWaits(),
    },
    {
      // The runner's timer is unref'd (it never holds a web server open); in the worker it is the process's only work.
      name: "keep-alive",
      roles: ["worker"],
      start: () => keepAlive.set(setInterval(() => {}, 1 << 30)),
      stop: () => clearInterval(keepAlive.get()),
    },
  ],
  [
    {
      // Last: its requests to this server are answered only once boot (instrumentation's register()) has returned.
      // Then `Sandbox ready`, then the job runner, whose first webhook deliveries go to this server's receiver.
      name: "dev warm-up",
      roles: ["web"],
      wanted: warmsUpFirst,
      start: async () => {
        const { startDevWarmUp } = await import("./lifecycle/dev-warm-up");
        const { announceSandbox } = await import("./startup");
        startDevWarmUp({
          announce: async () => announceSandbox(await openedDatabase()),
          then: async () => void (await import("./worker/runner")).startJobRunner(),
        });
      },
      stop: async (deadline) => {
        await (await import("./lifecycle/dev-warm-up")).stopDevWarmUp();
        await stopRunner(deadline);
      },
    },
  ],
  [
    {
      name: "readiness",
      roles: servers,
      start: () => undefined,
      stop: async () => void (await import("./lifecycle/shutdown-state")).beginShutdown(),
    },
  ],
];

interface Booted {
  handle: BootedProcess;
  /** Resolves once every part of the role has started. */
  ready?: Promise<BootedProcess>;
  /** The parts started so far, stage by stage: what a stop (or a signal during start-up) stops. */
  started: Part[][];
  stopping?: Promise<void>;
}

const booted = processSlot<Booted>("bootedProcess");

/** Starts what a process of `role` holds, once per process: a later call answers the first's process. */
export function boot(options: BootOptions): Promise<BootedProcess> {
  const current = booted.get();
  if (current?.ready) return current.ready;
  const state: Booted = { started: [], handle: { role: options.role, stop: (deadline) => stopParts(state, deadline) } };
  booted.set(state);
  state.ready = startParts(state, options);
  return state.ready;
}

async function startParts(state: Booted, options: BootOptions): Promise<BootedProcess> {
  const { role } = options;
  await refuseToStart(role);
  if (role !== "cli") installSignalHandlers(state);
  for (const stage of stages) {
    const started: Part[] = [];
    state.started.push(started);
    for (const part of stage) {
      if (!part.roles.includes(role) || (part.wanted && !part.wanted(options))) continue;
      await part.start(options);
      started.push(part);
    }
  }
  return state.handle;
}

/** The start-up refusals: one line saying why, then exit 1. */
async function refuseToStart(role: ProcessRole): Promise<void> {
  if (role === "cli") {
    // The CLI's errors are its own lines on stderr, not the server's log.
    const tooOld = unsupportedNodeMessage();
    if (tooOld) {
      process.stderr.write(`${tooOld}\n`);
      process.exit(1);
    }
    exitOnUnpatchedDriver((line) => process.stderr.write(`${line}\n`));
    return;
  }
  // The web instances' JOBS_RUNNER=off, in an environment they share with the worker, is not for it.
  if (role === "worker") process.env.JOBS_RUNNER = "on";
  (await import("./startup")).checkStartUp();
  if (role === "worker" && inngestConfigured()) {
    logger.error("Inngest is configured (INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY, or INNGEST_DEV): it runs the jobs, not npm run worker");
    process.exit(1);
  }
}

function stopParts(state: Booted, deadline = Number.POSITIVE_INFINITY): Promise<void> {
  state.stopping ??= (async () => {
    for (const stage of [...state.started].reverse()) {
      await Promise.all(
        stage.map(async (part) => {
          try {
            await part.stop?.(deadline);
          } catch (error) {
            logger.error("shutdown: part not stopped cleanly", { part: part.name, error });
          }
        }),
      );
    }
    booted.set(undefined);
  })();
  return state.stopping;
}

/** Replaces Next.js's signal handlers (the only ones at this point of start-up: instrumentation runs first). */
function installSignalHandlers(state: Booted): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutDown(state, signal));
  }
}

async function shutDown(state: Booted, signal: NodeJS.Signals): Promise<void> {
  if (state.stopping) return;
  const graceMs = config().SHUTDOWN_GRACE_MS;
  logger.info("shutting down", { signal, graceMs });
  await stopParts(state, Date.now() + graceMs);
  logger.info("shut down");
  process.exit(0);
}
