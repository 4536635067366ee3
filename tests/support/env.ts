import { afterEach, beforeEach, vi } from "vitest";
import { resetConfig } from "@/lib/base/config";

/**
 * The environment of a test, and the settings read from it: the settings are cached once read, so a
 * stubbed variable counts only after `resetConfig`. Each helper does both, so no test forgets one.
 */

/** Sets the variables (`undefined` removes one) and has the settings read them. */
export function setEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetConfig();
}

/** Puts back every variable a test set, and has the settings read the environment again. */
export function restoreEnv(): void {
  vi.unstubAllEnvs();
  resetConfig();
}

/** Within the calling `describe` (or file): the variables set before each test, put back after it. */
export function useEnv(env: Record<string, string | undefined>): void {
  beforeEach(() => setEnv(env));
  afterEach(restoreEnv);
}
