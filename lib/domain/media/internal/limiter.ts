import os from "node:os";
import { config } from "@/lib/base/config";

/**
 * How many photos one process works on at once (`PHOTO_CONCURRENCY`; default one core fewer than
 * the machine has, at least 1 and at most 4): sharp's work and the files in memory stay bounded
 * however many listings are queued, and the API's requests keep a core of their own (the renderer,
 * at a lower priority, also yields the others to them: renderer.ts).
 */
export const photoConcurrency = (): number => config().PHOTO_CONCURRENCY ?? Math.max(1, Math.min(4, os.availableParallelism() - 1));

const holder = globalThis as typeof globalThis & { __photoSlots?: { busy: number; waiting: (() => void)[] } };
const slots = (holder.__photoSlots ??= { busy: 0, waiting: [] });

/** Runs `work` when one of the process's photo slots is free. */
export async function inPhotoSlot<T>(work: () => Promise<T>): Promise<T> {
  while (slots.busy >= photoConcurrency()) await new Promise<void>((resolve) => slots.waiting.push(resolve));
  slots.busy++;
  try {
    return await work();
  } finally {
    slots.busy--;
    slots.waiting.shift()?.();
  }
}
