/**
 * A stand-in for the app process in `import-kill.test.ts` and `photo-kill.test.ts`, run with
 * `node --import tsx` and an IPC channel (`jobWorkers` in support/job-worker-process.ts): it opens
 * the database its environment names (`DATABASE_URL`) as the server does and runs the embedded
 * runner's pass over one job, named by its argument (`listings.import` or `photos.process`), every
 * 100 ms, as the runner's tick does. Its clock runs `WORKER_OFFSET_MS` ahead of the real one, so a
 * restarted "server" finds the dead one's leases ended without the test waiting for them. It sends
 * `{ type: "ready" }` once started.
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

const jobs = {
  "listings.import": async () => (await import("@/lib/adapters/jobs/import-jobs")).processImportJob,
  "photos.process": async () => (await import("@/lib/adapters/jobs/photo-jobs")).processPhotosJob,
};

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!(name in jobs)) throw new Error(`job-worker: no job ${name}; one of ${Object.keys(jobs).join(", ")}`);
  const { configureDatabase, database } = await import("@/db");
  const { databaseSettings } = await import("@/lib/base/config");
  const { runDueJobs } = await import("@/lib/adapters/jobs/run");
  const job = await jobs[name as keyof typeof jobs]();
  configureDatabase(databaseSettings);
  const db = await database();
  process.send?.({ type: "ready" });
  for (;;) {
    await runDueJobs({ database: db, jobs: [job] });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
