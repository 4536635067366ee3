import { describe, expect, it } from "vitest";
import { cyclesWithImports, folderCycles, folderGraph } from "../../scripts/folder-graph";

describe("lib/ folders", () => {
  it("form no cycle", () => {
    expect(cyclesWithImports()).toEqual([]);
  });

  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["lib/a/x", new Map([["lib/a/y", "x imports y"]])],
      ["lib/a/y", new Map([["lib/a/z", "y imports z"]])],
      ["lib/a/z", new Map([["lib/a/x", "z imports x"]])],
      ["lib/a/w", new Map([["lib/a/x", "w imports x"]])],
    ]);
    expect(folderCycles(graph)).toEqual([["lib/a/x", "lib/a/y", "lib/a/z"]]);
  });

  it("reads the graph of this project (resolving aliases, relative paths and folder indexes)", () => {
    const graph = folderGraph();
    expect(graph.get("lib/adapters/jobs")?.has("lib/domain/media")).toBe(true);
    expect(graph.get("lib/domain/listings")?.has("lib/domain/vocabulary")).toBe(true);
    expect(graph.get("lib/base/validation")?.has("lib/base")).toBe(true);
  });
});
