import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const workerScript = path.join(import.meta.dirname, "..", "job-worker.ts");

/**
 * The "server" processes of a kill test (job-worker.ts), each running one job's passes: `start`
 * resolves once one is ready, `killed` ends one with SIGKILL and waits for its exit, `killAll`
 * (after the file) ends whatever is left.
 */
export function jobWorkers(job: "listings.import" | "photos.process") {
  const children = new Set<ChildProcess>();
  return {
    async start(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
      const child = spawn(process.execPath, ["--import", "tsx", workerScript, job], {
        env,
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      });
      children.add(child);
      await new Promise<void>((resolve, reject) => {
        child.on("message", (message: { type: string }) => message.type === "ready" && resolve());
        child.once("exit", (code, signal) => reject(new Error(`${job} worker exited before it was ready (${code ?? signal})`)));
      });
      return child;
    },
    async killed(child: ChildProcess): Promise<void> {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      children.delete(child);
    },
    killAll(): void {
      for (const child of children) child.kill("SIGKILL");
    },
  };
}
