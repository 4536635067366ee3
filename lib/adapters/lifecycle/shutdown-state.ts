import { processSlot } from "@/lib/base/process-registry";

// Whether this process has begun shutting down, in the process registry: the readiness route reads
// what shutdown set.
const begun = processSlot<true>("shutdownBegun");

export const shutdownBegun = (): boolean => begun.get() === true;

/** From now on readiness answers 503; returns false when shutdown had already begun. */
export function beginShutdown(): boolean {
  if (begun.get()) return false;
  begun.set(true);
  return true;
}
