import { describe, expect, it } from "vitest";
import packageJson from "@/package.json";
import { minimumNode, supportsNode, unsupportedNodeMessage } from "@/lib/base/node-version";

describe("the supported Node.js versions", () => {
  it("come from package.json engines", () => {
    expect(packageJson.engines.node).toBe(`>=${minimumNode.join(".")}`);
  });

  it("accept the minimum and anything newer, refuse anything older", () => {
    expect(supportsNode("20.19.0", [20, 19])).toBe(true);
    expect(supportsNode("v20.20.2", [20, 19])).toBe(true);
    expect(supportsNode("24.0.0", [20, 19])).toBe(true);
    expect(supportsNode("20.18.3", [20, 19])).toBe(false);
    expect(supportsNode("20.9.0", [20, 19])).toBe(false);
    expect(supportsNode("18.20.0", [20, 19])).toBe(false);
  });

  it("explain in one line why an older runtime stops, and say nothing for this one", () => {
    expect(unsupportedNodeMessage("20.9.0")).toBe(
      `Node.js 20.9.0 is too old: this application needs Node.js ${minimumNode.join(".")} or newer (package.json engines); Node 24 is recommended.`,
    );
    expect(unsupportedNodeMessage()).toBeUndefined();
  });
});
