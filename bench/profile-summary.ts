/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [filter] [rows]`: the frames a V8 CPU profile
 * (`--cpu-prof`, e.g. `BENCH_API_CPU_PROF`) spent most time in, idle excluded: self time (the frame
 * itself) and total time (with what it called), by function, file and line; `filter` (a regular
 * expression) keeps the frames whose description matches. Build with `serverMinification: false` in
 * next.config.ts for readable names in the server's chunks.
 *
 * `PROFILE_SECONDS=<from>-<to>` keeps the samples of that window (seconds from the profile's start;
 * `PROFILE_SECONDS=timeline` prints the busy share of each second instead, to find a figure's run in
 * a server that served several). `PROFILE_BY=owner` sums self time by owner instead of by frame:
 * Next.js, Node's internals, each bundled chunk (a package's or our modules'), native frames.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, filter = ".", rows = "40"] = process.argv.slice(2);
if (!file) throw new Error("usage: tsx bench/profile-summary.ts <file.cpuprofile> [filter] [rows]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const describe = ({ callFrame }: ProfileNode) => {
  const where = callFrame.url
    .replace(/^.*\/(node_modules|\.next)\//, "$1/")
    .split("/")
    .slice(-2)
    .join("/");
  return `${callFrame.functionName || "(anonymous)"} ${where}:${callFrame.lineNumber}`;
};

const window = process.env.PROFILE_SECONDS;
const [from, to] = window && window !== "timeline" ? window.split("-").map(Number) : [-Infinity, Infinity];
const timeline = new Map<number, number>();
let clock = 0;

/** Who a frame belongs to, for PROFILE_BY=owner. */
const ownerOf = ({ callFrame: { url, functionName } }: ProfileNode) => {
  if (!url) return functionName.startsWith("(") ? functionName : `native ${functionName}`;
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  if (url.includes("/next/dist/")) return "Next.js";
  return url.match(/chunks\/(.*)\.js$/)?.[1] ?? url.replace(/^.*\//, "");
};
const byOwner = process.env.PROFILE_BY === "owner";

const self = new Map<string, number>();
const total = new Map<string, number>();
let busy = 0;
profile.samples.forEach((sample, index) => {
  const node = nodes.get(sample)!;
  const micros = profile.timeDeltas[index] ?? 0;
  clock += micros;
  const second = Math.floor(clock / 1e6);
  if (node.callFrame.functionName === "(idle)" || second < from || second >= to) return;
  timeline.set(second, (timeline.get(second) ?? 0) + micros);
  busy += micros;
  const key = byOwner ? ownerOf(node) : describe(node);
  self.set(key, (self.get(key) ?? 0) + micros);
  if (byOwner) return;
  // A frame counts once per sample however often it recurs in the stack.
  const seen = new Set<string>();
  for (let id: number | undefined = sample; id !== undefined; id = parents.get(id)) {
    const name = describe(nodes.get(id)!);
    if (!seen.has(name)) total.set(name, (total.get(name) ?? 0) + micros);
    seen.add(name);
  }
});

if (window === "timeline") {
  console.log([...timeline].map(([second, micros]) => `${second}s ${Math.round(micros / 1e4)}%`).join("  "));
  process.exit(0);
}
const matches = new RegExp(filter);
const percent = (micros: number) => `${((micros / busy) * 100).toFixed(1).padStart(5)} %`;
console.log(`busy ${(busy / 1e6).toFixed(1)} s\n\n${byOwner ? "self      owner" : "total     self      frame"}`);
for (const [name, micros] of [...(byOwner ? self : total)]
  .filter(([name]) => matches.test(name))
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(rows)))
  console.log(byOwner ? `${percent(micros)}  ${name}` : `${percent(micros)}  ${percent(self.get(name) ?? 0)}  ${name}`);
