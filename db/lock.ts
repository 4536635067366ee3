import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * PGlite has no lock of its own and loses data when two processes open one folder.
 * The process that opens the folder writes `<dataDir>.lock` with its pid and, when it serves
 * operator commands, the port and token of that channel; others read it instead of opening.
 */
export interface LockInfo {
  pid: number;
  operatorPort?: number;
  operatorToken?: string;
}

const lockPath = (dataDir: string) => `${dataDir}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live holder of the folder other than this process, if any. */
export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir), "utf8")) as LockInfo;
    return info.pid !== process.pid && alive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

export class DatabaseInUseError extends Error {
  constructor(public readonly holder: LockInfo) {
    super(`The embedded database folder is in use by process ${holder.pid}.`);
  }
}

export function acquireLock(dataDir: string): void {
  // The lock sits beside the folder, whose parent (`.data` on a fresh checkout) may not exist yet.
  mkdirSync(path.dirname(dataDir), { recursive: true });
  const content = JSON.stringify({ pid: process.pid } satisfies LockInfo);
  for (let attempt = 0; ; attempt++) {
    try {
      // `wx` creates the file only if it does not exist: of two processes starting together, one wins.
      writeFileSync(lockPath(dataDir), content, { mode: 0o600, flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const holder = readLock(dataDir);
      if (holder) throw new DatabaseInUseError(holder);
      rmSync(lockPath(dataDir), { force: true });
    }
  }
  process.once("exit", () => releaseLock(dataDir));
}

export function updateLock(dataDir: string, info: Omit<LockInfo, "pid">): void {
  writeFileSync(lockPath(dataDir), JSON.stringify({ pid: process.pid, ...info }), { mode: 0o600 });
}

function releaseLock(dataDir: string): void {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir), "utf8")) as LockInfo;
    if (info.pid === process.pid) rmSync(lockPath(dataDir));
  } catch {
    // Already gone: nothing to release.
  }
}
