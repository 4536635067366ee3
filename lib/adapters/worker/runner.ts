import { database as processDatabase } from "@/db";
import { config, inngestConfigured } from "@/lib/base/config";
import { systemContext } from "@/lib/base/context";
import { logger } from "@/lib/base/logger";
import { processSlot } from "@/lib/base/process-registry";
import { releaseJob } from "@/lib/infra/jobs/store";
import { jobRegistry } from "@/lib/adapters/jobs/registry";
import { runDueJobs, type Running } from "@/lib/adapters/jobs/run";
import { DeliveryLane } from "@/lib/domain/webhooks/delivery";

/** How often the embedded runner looks for due rows. */
const pollMs = 1000;

interface RunnerState {
  timer?: NodeJS.Timeout;
  tick?: Promise<void>;
  /** The process's delivery lane, made once the database is open, and its start. */
  lane?: DeliveryLane;
  laneStarted?: Promise<void>;
  running: Set<Running>;
  stopped: boolean;
}

// One runner per process, in the process registry.
const runner = processSlot<RunnerState>("jobRunner");

/** The embedded runner's mode: on unless switched off or Inngest runs the jobs. */
const embeddedRunnerEnabled = (): boolean => config().JOBS_RUNNER === "on" && !inngestConfigured();

/** Starts polling the jobs table every second; returns false when the embedded runner is not wanted. */
export function startJobRunner(): boolean {
  if (!embeddedRunnerEnabled()) return false;
  if (runner.get() && !runner.get()!.stopped) return true;
  const state: RunnerState = { running: new Set(), stopped: false };
  runner.set(state);
  const loop = async () => {
    try {
      await runDueJobs({ database: await processDatabase(), stopping: () => state.stopped, running: state.running, pollMs });
    } catch (error) {
      logger.error("job runner tick failed", { error });
    }
    if (!state.stopped) state.timer = setTimeout(() => (state.tick = loop()), pollMs).unref();
  };
  state.tick = loop();
  // Webhook deliveries are rows of their own, claimed by the delivery lane (woken at each commit).
  state.laneStarted = processDatabase()
    .then((database) => {
      if (state.stopped) return;
      state.lane = new DeliveryLane({ database });
      return state.lane.start();
    })
    .catch((error: unknown) => logger.error("webhook delivery lane not started", { error }));
  logger.info("embedded job runner started", { jobs: jobRegistry.map((job) => job.name) });
  return true;
}

/**
 * Stops polling and claiming: the tick in progress ends with its runs (a photo list being
 * processed finishes), and meanwhile the delivery lane stops (`DeliveryLane.stop`), so the database
 * can be closed after both. With `by` (epoch ms, shutdown's grace) it waits no longer: the jobs still
 * running are given back (their rows due again at once, the job's `giveBack` for what else they
 * hold) and it answers `late`.
 */
export async function stopJobRunner(options: { by?: number } = {}): Promise<"done" | "late"> {
  const state = runner.get();
  if (!state) return "done";
  state.stopped = true;
  clearTimeout(state.timer);
  const laneStopped = state.laneStarted?.then(() => state.lane?.stop());
  const stopped = Promise.all([state.tick, laneStopped]).then(() => "done" as const);
  const outcome = options.by === undefined ? await stopped : await Promise.race([stopped, after(options.by)]);
  if (outcome === "late") await giveBackRunning([...state.running]);
  runner.set(undefined);
  return outcome;
}

function after(deadline: number): Promise<"late"> {
  return new Promise((resolve) => setTimeout(() => resolve("late"), Math.max(0, deadline - Date.now())).unref());
}

async function giveBackRunning(running: Running[]): Promise<void> {
  const database = await processDatabase();
  for (const { row, job } of running) {
    try {
      const now = new Date();
      await releaseJob(database.connection, row, now);
      const payload = job.payload.safeParse(row.payload);
      if (payload.success && job.giveBack) {
        await job.giveBack(payload.data, {
          ...systemContext(database, { now }),
          // The row was just given back: the run holds it no more.
          job: { id: row.id, name: row.name, attempt: row.attempts, accountId: row.accountId, renewLease: async () => false },
        });
      }
      logger.warn("job given back unfinished at shutdown", { job: row.name, jobId: row.id });
    } catch (error) {
      logger.error("job not given back at shutdown; its claim ends on its own", { job: row.name, jobId: row.id, error });
    }
  }
}
