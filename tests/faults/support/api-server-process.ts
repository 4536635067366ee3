import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { ChildDatabase } from "../../support/child-database";

const serverScript = path.join(import.meta.dirname, "..", "api-server.ts");

/** A real server process (`tests/faults/api-server.ts`) on a test's own database. */
export interface ApiServerProcess {
  process: ChildProcess;
  origin: string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** What the process wrote on stderr so far (its JSON log lines among it). */
  stderr(): string;
  /** How many requests of the key wait for events in this process (`GET /events?wait=`). */
  waiting(keyId: string): Promise<number>;
}

/**
 * Starts the server on `target` (a database the test prepared and let go) with the test's
 * environment and `env` over it, and resolves once it listens.
 */
export async function startApiServer(target: ChildDatabase, env: Record<string, string> = {}): Promise<ApiServerProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...target.childEnv(), NEXT_RUNTIME: "nodejs", ...env };
  delete childEnv.PGLITE_TEMPLATE;
  if (!target.childEnv().DATABASE_URL) {
    delete childEnv.DATABASE_URL;
    delete childEnv.DATABASE_URL_UNPOOLED;
  }
  const child = spawn(process.execPath, ["--import", "tsx", serverScript], { env: childEnv, stdio: ["ignore", "ignore", "pipe", "ipc"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.on("message", (message: { type: string; port: number }) => message.type === "ready" && resolve(message.port));
    child.once("exit", (code) => reject(new Error(`server exited before it was ready (${code}):\n${stderr}`)));
  });
  const waiting = (keyId: string) =>
    new Promise<number>((resolve) => {
      const caller = `api:${keyId}`;
      const onMessage = (message: { type: string; caller: string; count: number }) => {
        if (message.type !== "waiting" || message.caller !== caller) return;
        child.off("message", onMessage);
        resolve(message.count);
      };
      child.on("message", onMessage);
      child.send({ type: "waiting", caller });
    });
  return { process: child, origin: `http://127.0.0.1:${port}`, exited, stderr: () => stderr, waiting };
}
