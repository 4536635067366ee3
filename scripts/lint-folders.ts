// Part of `npm run lint`: fails when lib/'s folders import each other in a circle (scripts/folder-graph.ts),
// naming the folders and the imports that close each cycle.
import { cyclesWithImports } from "./folder-graph";

const cycles = cyclesWithImports();
for (const cycle of cycles) {
  console.error(`Folder cycle: ${cycle.folders.join(" → ")}`);
  for (const line of cycle.imports) console.error(`  ${line}`);
}
if (cycles.length) process.exit(1);
console.log("lib/ folders: no cycle");
