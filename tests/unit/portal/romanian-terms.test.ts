import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The Romanian words of the portal, its home page and its guides are spelled one way everywhere: a
 * borrowed word ending in a consonant that is pronounced takes its endings without a hyphen
 * ("webhookuri", "webhookul", "sandboxul", as DOOM writes "weekenduri").
 */
const texts = [
  "messages/ro.json",
  ...readdirSync("content/docs/ro")
    .filter((file) => file.endsWith(".mdx"))
    .map((file) => path.join("content/docs/ro", file)),
];

describe("Romanian terms", () => {
  it.each(texts)("%s writes webhookuri and sandboxul, never with a hyphen", (file) => {
    const hyphenated = readFileSync(file, "utf8").match(/\b(webhook|sandbox)-u(l|lui|ri|rile|rilor)\b/gi) ?? [];
    expect(hyphenated).toEqual([]);
  });
});
