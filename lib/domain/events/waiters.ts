/**
 * Why a wait ended: an event of the account was committed, its time ran out, the process is shutting
 * down, or the waiter left (its client went away).
 */
export type WaitEnd = "woken" | "timeout" | "shutdown" | "left";

/** One request waiting for an account's events (`EventWaiters.watch`). */
export interface EventWaiter {
  /**
   * Takes one of the caller's waiting places until `deadline` (epoch ms): false when the caller
   * already holds all of them. Once per waiter, before `next`.
   */
  hold(caller: string, deadline: number): boolean;
  /**
   * Resolves with `woken` when an event of the account was committed since `watch` or since the
   * previous `next` (at once if that happened meanwhile, while the caller was reading), `timeout` at
   * the deadline, `shutdown` when the waiters close (at once if they are closed), `left` once the
   * waiter has left.
   */
  next(): Promise<WaitEnd>;
  /**
   * Gives back the waiting place and ends the pending `next`, and any later one, with `left`: call it
   * however the wait ended, and as soon as the client goes away, so its place is free at once.
   */
  leave(): void;
}

interface Entry {
  accountId: string;
  caller?: string;
  deadline?: number;
  /** Woken while no `next` was pending: the next one resolves at once. */
  woken: boolean;
  closed: boolean;
  left: boolean;
  settle?: (end: WaitEnd) => void;
}

/**
 * The bookkeeping of `GET /events?wait=` in one process: the requests waiting, by account (whom a
 * commit wakes) and by caller (an API key: at most `perCaller` of its requests wait at once). It holds
 * no database connection and knows none: the process's LISTEN calls `wake` (list-events.ts).
 *
 * A request watches first, then reads: an event committed after `watch` wakes it even if the read
 * missed it, so no commit falls between the read and the wait. It holds a place only once the read
 * found nothing, so a request answered at once never counts against the caller's limit.
 */
export class EventWaiters {
  private readonly byAccount = new Map<string, Set<Entry>>();
  private readonly byCaller = new Map<string, Set<Entry>>();
  private closed = false;

  constructor(readonly perCaller: number) {}

  watch(accountId: string): EventWaiter {
    const entry: Entry = { accountId, woken: false, closed: this.closed, left: false };
    addTo(this.byAccount, accountId, entry);
    return {
      hold: (caller, deadline) => {
        if (entry.caller !== undefined) throw new Error("a waiter holds one place");
        if (this.waiting(caller) >= this.perCaller) return false;
        entry.caller = caller;
        entry.deadline = deadline;
        addTo(this.byCaller, caller, entry);
        return true;
      },
      next: () => this.next(entry),
      leave: () => {
        entry.left = true;
        entry.settle?.("left");
        removeFrom(this.byAccount, accountId, entry);
        if (entry.caller !== undefined) removeFrom(this.byCaller, entry.caller, entry);
      },
    };
  }

  /** Wakes every request waiting for the account's events. */
  wake(accountId: string): void {
    for (const entry of this.byAccount.get(accountId) ?? []) {
      if (entry.settle) entry.settle("woken");
      else entry.woken = true;
    }
  }

  /** Ends every wait with `shutdown`, and every later one at once: the process is shutting down. */
  close(): void {
    this.closed = true;
    for (const entries of this.byAccount.values())
      for (const entry of entries) {
        entry.closed = true;
        entry.settle?.("shutdown");
      }
  }

  /** The caller's requests holding a waiting place. */
  waiting(caller: string): number {
    return this.byCaller.get(caller)?.size ?? 0;
  }

  /** Whole seconds, at least 1, until the first of the caller's waits ends at the latest (a refused caller's `Retry-After`). */
  secondsUntilFree(caller: string, now = Date.now()): number {
    const deadlines = [...(this.byCaller.get(caller) ?? [])].map((entry) => entry.deadline!);
    if (deadlines.length === 0) return 1;
    return Math.max(1, Math.ceil((Math.min(...deadlines) - now) / 1000));
  }

  private next(entry: Entry): Promise<WaitEnd> {
    if (entry.deadline === undefined) throw new Error("hold a place before waiting");
    if (entry.left) return Promise.resolve("left");
    if (entry.closed) return Promise.resolve("shutdown");
    if (entry.woken) {
      entry.woken = false;
      return Promise.resolve("woken");
    }
    const remaining = entry.deadline - Date.now();
    if (remaining <= 0) return Promise.resolve("timeout");
    return new Promise((resolve) => {
      const timer = setTimeout(() => entry.settle?.("timeout"), remaining);
      entry.settle = (end) => {
        clearTimeout(timer);
        entry.settle = undefined;
        resolve(end);
      };
    });
  }
}

function addTo(map: Map<string, Set<Entry>>, key: string, entry: Entry): void {
  const entries = map.get(key) ?? new Set();
  entries.add(entry);
  map.set(key, entries);
}

function removeFrom(map: Map<string, Set<Entry>>, key: string, entry: Entry): void {
  const entries = map.get(key);
  entries?.delete(entry);
  if (entries?.size === 0) map.delete(key);
}
