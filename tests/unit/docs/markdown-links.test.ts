import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { brokenLinks, headingAnchors, linkTargets } from "../../support/markdown-links";

const root = path.join(import.meta.dirname, "../../..");

/** The Markdown a clone carries for its readers: the README, the changelog, docs/ and the client's README. */
function repositoryMarkdown(): string[] {
  const docs = readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join("docs", file));
  return ["README.md", "CHANGELOG.md", "sdk/README.md", ...docs];
}

describe("links of the repository's Markdown", () => {
  it("stay inside the repository and reach an existing file and heading", () => {
    expect(brokenLinks(root, repositoryMarkdown())).toEqual([]);
  });

  it("are read from every file (the check sees the links it is meant to)", () => {
    const targets = linkTargets(readFileSync(path.join(root, "README.md"), "utf8"));
    expect(targets).toContain("docs/development.md#tests");
    expect(linkTargets("[Benchmarks](docs/benchmarks.md#soak) and ![a](img.png)")).toEqual(["docs/benchmarks.md#soak", "img.png"]);
  });
});

describe("the link check", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "markdown-links-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("reports links outside the repository, to missing files and to missing headings; passes the others", () => {
    const repository = path.join(scratch, "repository");
    mkdirSync(path.join(repository, "docs"), { recursive: true });
    writeFileSync(path.join(scratch, "outside.md"), "# Outside\n");
    writeFileSync(path.join(repository, "docs/guide.md"), "# Guide\n\n## Which Node.js in production\n\n## Events by ranges of `seq`\n");
    writeFileSync(
      path.join(repository, "README.md"),
      [
        "# Readme",
        "[spec](../outside.md), [gone](docs/missing.md), [bad heading](docs/guide.md#nowhere),",
        "[guide](docs/guide.md#which-nodejs-in-production), [seq](docs/guide.md#events-by-ranges-of-seq), [self](#readme),",
        "[folder](docs/), [web](https://example.com/x), `[in code](../outside.md)`",
        "```",
        "[in a block](../outside.md)",
        "```",
      ].join("\n"),
    );
    expect(brokenLinks(repository, ["README.md"])).toEqual([
      { file: "README.md", target: "../outside.md", problem: "points outside the repository" },
      { file: "README.md", target: "docs/missing.md", problem: "names a file the repository lacks" },
      { file: "README.md", target: "docs/guide.md#nowhere", problem: "names a heading docs/guide.md lacks" },
    ]);
  });

  it("numbers repeated headings as GitHub does", () => {
    expect([...headingAnchors("# Tests\n\n## Tests\n\n### Soak (10 min) — p99 ÷ idle\n")]).toEqual([
      "tests",
      "tests-1",
      "soak-10-min--p99--idle",
    ]);
  });
});
