import type { Connection } from "./client";

/** One read replica: its own pool, and the name the log gives it. */
export interface Replica {
  /** `host:port/database`: never the user or password of its address. */
  name: string;
  connection: Connection;
}

/**
 * The read replicas of a database and which of them serve. Reads are spread round robin over those
 * serving; a replica whose read failed for want of a connection rests for `retryAfterMs`, then one
 * read (not every read) tries it again: were it still down, it rests again. Who reads decides what
 * a failure is and what to log (`readMayLag`, lib/base/context.ts): this only keeps the turns.
 */
export class ReplicaSet {
  private turn = 0;
  /** Resting replicas, by when the next read may try them (milliseconds, `now()`'s). */
  private readonly restingUntil = new Map<Replica, number>();

  constructor(
    readonly replicas: readonly Replica[],
    private readonly retryAfterMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The replica the next read goes to, or `undefined` when every one rests (the read goes to the
   * primary). A resting replica whose time is up is handed to this read alone: its next try is
   * pushed back at once, so the reads that follow while it is tried do not pile onto it.
   */
  pick(): Replica | undefined {
    const count = this.replicas.length;
    for (let offset = 0; offset < count; offset++) {
      const replica = this.replicas[(this.turn + offset) % count];
      const until = this.restingUntil.get(replica);
      if (until !== undefined && until > this.now()) continue;
      if (until !== undefined) this.restingUntil.set(replica, this.now() + this.retryAfterMs);
      this.turn = (this.turn + offset + 1) % count;
      return replica;
    }
    return undefined;
  }

  /** A read on `replica` could not reach it: it rests. True when it was serving until now (the caller says so once). */
  unreachable(replica: Replica): boolean {
    const wasServing = !this.restingUntil.has(replica);
    this.restingUntil.set(replica, this.now() + this.retryAfterMs);
    return wasServing;
  }

  /** `replica` answered a read. True when it was resting: it serves again (the caller says so once). */
  answered(replica: Replica): boolean {
    return this.restingUntil.delete(replica);
  }
}

/** `host:port/database` of a PostgreSQL address, for the log: its user, password and options left out. */
export function replicaName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return "an address that is not a valid URL";
  }
}
