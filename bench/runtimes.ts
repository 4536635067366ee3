import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** A Node.js binary the benchmark starts servers with. */
export interface Runtime {
  /** `Node 20`, `Node 24`. */
  name: string;
  node: string;
  version: string;
}

const major = (version: string) => version.replace(/^v/, "").split(".")[0];

/** The Node.js running this script (the machines' Node 20). */
export const currentRuntime = (): Runtime => ({ name: `Node ${major(process.version)}`, node: process.execPath, version: process.version });

/**
 * Node 24 from the npm registry's `node` package: `npx -y node@24` installs it into npm's cache
 * (once; about 6 s, later calls reuse it) and prints the path of its binary. Returns the reason
 * instead when it cannot be had (no registry, a failed install, a binary that does not run).
 */
export function node24(): Runtime | { unavailable: string } {
  if (major(process.version) === "24") return currentRuntime();
  const result = spawnSync("npx", ["-y", "node@24", "-p", "process.execPath + ' ' + process.version"], {
    encoding: "utf8",
    timeout: 300_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (result.error) return { unavailable: `npx -y node@24: ${result.error.message}` };
  if (result.status !== 0) return { unavailable: `npx -y node@24 exited with ${result.status}: ${lastLine(result.stderr)}` };
  const [node, version] = lastLine(result.stdout).split(" ");
  if (!node || !existsSync(node) || major(version ?? "") !== "24")
    return { unavailable: `npx -y node@24 printed "${lastLine(result.stdout)}", not a Node 24 binary` };
  return { name: "Node 24", node, version };
}

const lastLine = (text: string) => text.trim().split("\n").pop() ?? "";
