import os from "node:os";
import pLimit, { type LimitFunction } from "p-limit";
import { config } from "@/lib/base/config";
import { processSlot } from "@/lib/base/process-registry";

/**
 * How many photos one process works on at once (`PHOTO_CONCURRENCY`; default one core fewer than
 * the machine has, at least 1 and at most 4): sharp's work and the files in memory stay bounded
 * however many listings are queued, and the API's requests keep a core of their own (the renderer,
 * at a lower priority, also yields the others to them: renderer.ts).
 */
export const photoConcurrency = (): number => config().PHOTO_CONCURRENCY ?? Math.max(1, Math.min(4, os.availableParallelism() - 1));

// One set of slots per process, in the process registry: every job of the process shares them.
const slots = processSlot<LimitFunction>("photoLimiter");

/** Runs `work` when one of the process's photo slots is free. */
export function inPhotoSlot<T>(work: () => Promise<T>): Promise<T> {
  const limit = slots.getOrMake(() => pLimit(photoConcurrency()));
  // Read at each photo, as the configuration is: a changed setting applies to the photos still waiting.
  limit.concurrency = photoConcurrency();
  return limit(work);
}
