import packageJson from "@/package.json";

/**
 * The oldest Node.js this repository supports: `engines.node` of package.json (`>=major.minor`), the
 * version its development tools need (vitest 4 and its vite want 20.19); what no test runs on is
 * not supported. Checked when the server and the CLI start, so an older runtime stops with one line
 * instead of failing somewhere later.
 */
export const minimumNode = parseMinimum(packageJson.engines.node);

function parseMinimum(range: string): [number, number] {
  const match = range.match(/^>=(\d+)\.(\d+)$/);
  if (!match) throw new Error(`package.json engines.node must read ">=major.minor", not ${JSON.stringify(range)}`);
  return [Number(match[1]), Number(match[2])];
}

/** Whether `version` (e.g. `20.20.2`) is at least the minimum. */
export function supportsNode(version: string, minimum: [number, number] = minimumNode): boolean {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major > minimum[0] || (major === minimum[0] && minor >= minimum[1]);
}

/** The one line printed when the runtime is too old, or undefined when it is supported. */
export function unsupportedNodeMessage(version = process.versions.node): string | undefined {
  if (supportsNode(version)) return undefined;
  return `Node.js ${version} is too old: this application needs Node.js ${minimumNode.join(".")} or newer (package.json engines); Node 24 is recommended.`;
}
