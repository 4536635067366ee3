// Whether this process has begun shutting down. On globalThis: the readiness route and
// instrumentation (which starts the shutdown) are separate bundles in one process.
const holder = globalThis as typeof globalThis & { __listingsShutdownBegun?: boolean };

export const shutdownBegun = (): boolean => holder.__listingsShutdownBegun === true;

/** From now on readiness answers 503; returns false when shutdown had already begun. */
export function beginShutdown(): boolean {
  if (holder.__listingsShutdownBegun) return false;
  holder.__listingsShutdownBegun = true;
  return true;
}
