/**
 * A stand-in for the app process in `photo-kill.test.ts`, run with `node --import tsx` and an IPC
 * channel: it opens the database its environment names (`DATABASE_URL`) as the server does and runs
 * the embedded runner's pass over the `photos.process` job every 100 ms, as the runner's tick does.
 * Its clock runs `WORKER_OFFSET_MS` ahead of the real one, so a restarted "server" finds the dead
 * one's leases ended without the test waiting for them. It sends `{ type: "ready" }` once started.
 */

// A module (not a global script), so its names do not meet other workers' in type checking.
export {};

const offset = Number(process.env.WORKER_OFFSET_MS ?? "0");
const RealDate = Date;
class OffsetDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as [string | number | Date]));
  }

  static now(): number {
    return RealDate.now() + offset;
  }
}
// Installed before the app's modules load (they are imported below, dynamically, for that reason).
globalThis.Date = OffsetDate as DateConstructor;

async function main(): Promise<void> {
  const { configureDatabase, database } = await import("@/db");
  const { databaseSettings } = await import("@/lib/base/config");
  const { processPhotosJob } = await import("@/lib/adapters/jobs/photo-jobs");
  const { runDueJobs } = await import("@/lib/adapters/jobs/run");
  configureDatabase(databaseSettings);
  const db = await database();
  process.send?.({ type: "ready" });
  for (;;) {
    await runDueJobs({ database: db, jobs: [processPhotosJob] });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
