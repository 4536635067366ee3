/**
 * A value one part of the process registers and every other part reads: instrumentation and the
 * route handlers are separate bundles in one process, so a module variable would not be shared;
 * the slot keeps the value on `globalThis` under its name.
 */
export interface ProcessSlot<T> {
  get(): T | undefined;
  set(value: T | undefined): void;
}

export function processSlot<T>(name: string): ProcessSlot<T> {
  const holder = globalThis as typeof globalThis & Record<string, T | undefined>;
  const key = `__listings_${name}`;
  return {
    get: () => holder[key],
    set: (value) => {
      holder[key] = value;
    },
  };
}
