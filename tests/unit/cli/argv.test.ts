import { describe, expect, it } from "vitest";
import { z } from "zod";
import { argsFor, parseArgv } from "@/lib/adapters/cli/argv";
import { defineCommand } from "@/lib/adapters/cli/command";
import { ValidationError } from "@/lib/base/errors";

const sample = defineCommand({
  name: "sample:run",
  summary: "A command for the parser's tests.",
  positional: ["code"],
  args: z.object({
    code: z.string(),
    reason: z.string().optional(),
    "redirect-uri": z.string().optional(),
    moderator: z.boolean().default(false),
  }),
  run: async (_, args) => args,
});

const fieldErrors = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error("expected a ValidationError");
};

describe("parseArgv", () => {
  it("reads `--flag value`, `--flag=value`, switches and positional words", () => {
    expect(
      parseArgv(["CODE1", "--reason", "too short", "--redirect-uri=https://a.example/cb?x=1", "--moderator"], sample.switches),
    ).toEqual({
      positional: ["CODE1"],
      flags: { reason: "too short", "redirect-uri": "https://a.example/cb?x=1", moderator: true },
    });
  });

  it("takes the next word as a value even when it looks like a positional, except for switches", () => {
    expect(parseArgv(["--moderator", "CODE1"], sample.switches)).toEqual({ positional: ["CODE1"], flags: { moderator: true } });
    expect(parseArgv(["--reason", "CODE1"], sample.switches)).toEqual({ positional: [], flags: { reason: "CODE1" } });
  });

  it("reads `--switch=false` as false", () => {
    expect(parseArgv(["--moderator=false"], sample.switches).flags).toEqual({ moderator: false });
  });

  it("reads every word after `--` as positional, and a value that looks like a flag as a value", () => {
    expect(parseArgv(["--reason", "--moderator", "--", "--moderator"], sample.switches)).toEqual({
      positional: ["--moderator"],
      flags: { reason: "--moderator" },
    });
  });

  it("keeps a flag the command does not know, with its value, for the command to refuse by name", () => {
    expect(parseArgv(["--colour", "red", "CODE1"], sample.switches)).toEqual({ positional: ["CODE1"], flags: { colour: "red" } });
  });

  it("refuses a flag name no command could have (capitals, `__proto__`) as unknown", () => {
    expect(fieldErrors(() => parseArgv(["--__proto__", "x", "--Colour", "red"]))).toEqual([
      { pointer: "/__proto__", code: "unknown_parameter" },
      { pointer: "/Colour", code: "unknown_parameter" },
    ]);
  });

  it("refuses a flag given twice and a flag without its value", () => {
    expect(fieldErrors(() => parseArgv(["--reason", "a", "--reason", "b"]))).toEqual([{ pointer: "/reason", code: "distinct" }]);
    expect(fieldErrors(() => parseArgv(["--reason"]))).toEqual([
      { pointer: "/reason", code: "invalid", params: { reason: "flag_needs_value", flag: "reason" } },
    ]);
  });
});

describe("argsFor", () => {
  it("names positional words after the command's positional arguments", () => {
    expect(argsFor(sample, { positional: ["CODE1"], flags: { reason: "r" } })).toEqual({ code: "CODE1", reason: "r" });
  });

  it("refuses more positional words than the command takes", () => {
    expect(fieldErrors(() => argsFor(sample, { positional: ["A", "B"], flags: {} }))).toEqual([
      { pointer: "", code: "invalid", params: { reason: "unexpected_argument", word: "B" } },
    ]);
  });
});

describe("defineCommand", () => {
  it("builds the usage line from the argument schema", () => {
    expect(sample.usage).toBe("npm run cli -- sample:run CODE [--reason REASON] [--redirect-uri REDIRECT-URI] [--moderator]");
  });

  it("refuses flags the command does not know, before running it", async () => {
    const ctx = {} as Parameters<typeof sample.execute>[0];
    await expect(sample.execute(ctx, { code: "A", colour: "red" })).rejects.toMatchObject({
      errors: [{ pointer: "/colour", code: "unknown_parameter" }],
    });
  });
});
