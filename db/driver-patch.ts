import postgres from "postgres";

/**
 * The mark patches/postgres+3.4.9.patch sets on postgres.js's export (`Postgres.listingsPlatformPatch`).
 * patch-package applies the patch on `postinstall`, so an install with `--ignore-scripts` leaves
 * the driver without its fixes for lost connections and says nothing; a driver the patch no longer
 * fits (another release) has no mark either. Change it with the patch, so a stale install is refused too.
 */
export const driverPatchMark = "postgres+3.4.9 bug fixes, begin reserved at max_pipeline 0";

/** Why a process must not start on `driver` (the postgres.js this build runs), or undefined when it carries the patch. */
export function unpatchedDriverMessage(driver: unknown = postgres): string | undefined {
  const mark = (driver as { listingsPlatformPatch?: unknown } | null | undefined)?.listingsPlatformPatch;
  if (mark === driverPatchMark) return undefined;
  return "postgres.js runs without patches/postgres+3.4.9.patch, whose fixes keep a lost database connection from ending the process or writing outside its transaction (docs/operations.md, PostgreSQL or Redis): install again without --ignore-scripts (or run `npx patch-package`), then rebuild and start";
}

/** Start-up (server, worker, CLI): on a driver without the patch, `report` one line saying so, then exit 1. */
export function exitOnUnpatchedDriver(report: (line: string) => void, driver: unknown = postgres): void {
  const message = unpatchedDriverMessage(driver);
  if (!message) return;
  report(message);
  process.exit(1);
}
