import { rateRules } from "@/lib/infra/rate-limit";
import type { BenchAccount } from "./seed";

const window = rateRules.key.windowSeconds * 1000;
/** Share of a key's per-window limit a run may plan to use: room for rounding and clock skew. */
const usable = 0.9;

/**
 * Keys used in rotation so that no key goes over the product's limit (300 per key per minute, in
 * fixed windows aligned to the clock): the benchmark measures answers, never 429s. A pool tracks
 * what it has sent per window and waits for a fresh window when a run would not fit.
 */
export class KeyPool {
  readonly keys: string[];
  private usedIn = new Map<number, number>();

  constructor(accounts: BenchAccount[]) {
    this.keys = accounts.flatMap((a) => a.keys);
  }

  /** Keys needed for `requests` within one window. */
  static keysFor(requests: number): number {
    return Math.ceil(requests / (rateRules.key.limit * usable));
  }

  get capacity(): number {
    return Math.floor(this.keys.length * rateRules.key.limit * usable);
  }

  /**
   * Runs `load` (at most `requests` requests with these keys) once they fit in the current window,
   * waiting for a fresh window when they do not; then counts them in every window the run touched.
   */
  async run<T>(requests: number, log: (line: string) => void, load: () => Promise<T>): Promise<T> {
    if (requests > this.capacity)
      throw new Error(`${requests} requests do not fit the rate limits of ${this.keys.length} keys (${this.capacity} per window)`);
    const now = Math.floor(Date.now() / window);
    if ((this.usedIn.get(now) ?? 0) + requests > this.capacity) {
      const waitMs = (now + 1) * window - Date.now() + 1000;
      log(`waiting ${Math.ceil(waitMs / 1000)} s for a fresh rate-limit window`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    const first = Math.floor(Date.now() / window);
    const result = await load();
    const last = Math.floor(Date.now() / window);
    for (let w = first; w <= last; w++) this.usedIn.set(w, (this.usedIn.get(w) ?? 0) + requests);
    return result;
  }
}
