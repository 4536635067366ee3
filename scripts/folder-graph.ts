import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * The import graph of lib/'s folders and its cycles (docs/development.md, Where things live). Lint keeps the layers
 * in order (`import/no-restricted-paths` in eslint.config.mjs); inside a layer, folders may use each
 * other, but never in a circle: a folder `lib/<layer>/<name>` (or the files directly in `lib/<layer>`)
 * that imports, through any chain, a folder that imports it back is a cycle. Type-only imports
 * (`import type`, or braces of `type` names only) are left out: they vanish from the build, and the
 * error codes (lib/base/errors.ts) and their messages (lib/base/i18n) name each other's types.
 * `npm run lint` runs `scripts/lint-folders.ts` over it; tests/unit/folder-cycles.test.ts proves it.
 */

const root = path.resolve(import.meta.dirname, "..");
const sourceFile = /\.(ts|tsx|mts|mjs|js)$/;
const specifiers =
  /(?:^|[\s;])(?:import|export)\s([^'"]*?)from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm;

/** `type X`, `{ type X, type Y }`: names that exist only for the type checker. */
const typeOnly = (clause: string): boolean =>
  /^type\s/.test(clause.trim()) || /^\{\s*(?:type\s+[\w$]+(?:\s+as\s+[\w$]+)?\s*,?\s*)+\}$/.test(clause.trim());

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourcesUnder(full);
    return sourceFile.test(entry.name) ? [full] : [];
  });
}

/** The file an import names, as the bundler finds it (extension added, a folder's index), or undefined outside the project. */
function resolveImport(importer: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(importer), specifier);
  else return undefined;
  const candidates = [base, ...[".ts", ".tsx", ".mts", ".mjs", ".js"].flatMap((ext) => [base + ext, path.join(base, `index${ext}`)])];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** `lib/<layer>/<name>` for a file in a folder of a layer, `lib/<layer>` for a file directly in it. */
function folderOf(file: string): string | undefined {
  const parts = path.relative(root, file).split(path.sep);
  if (parts[0] !== "lib" || parts.length < 3) return undefined;
  return parts.slice(0, parts.length > 3 ? 3 : 2).join("/");
}

/** Folder → folder → one import that makes the edge (to say where a cycle comes from). */
export function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourcesUnder(path.join(root, "lib"))) {
    const from = folderOf(file);
    if (!from) continue;
    for (const match of readFileSync(file, "utf8").matchAll(specifiers)) {
      if (match[1] !== undefined && typeOnly(match[1])) continue;
      const specifier = match[2] ?? match[3] ?? match[4];
      const target = resolveImport(file, specifier);
      const to = target && folderOf(target);
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${path.relative(root, file)} imports ${specifier}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan). */
export function folderCycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    onStack.add(folder);
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(folder, Math.min(low.get(folder)!, index.get(next)!));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const folder of graph.keys()) if (!index.has(folder)) visit(folder);
  return cycles;
}

/** Each cycle with the imports that close it. */
export function cyclesWithImports(graph = folderGraph()): { folders: string[]; imports: string[] }[] {
  return folderCycles(graph).map((cycle) => ({
    folders: cycle,
    imports: cycle.flatMap((from) => cycle.flatMap((to) => graph.get(from)?.get(to) ?? [])),
  }));
}
