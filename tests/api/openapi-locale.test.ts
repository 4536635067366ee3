import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GET as openapi } from "@/app/api/v1/openapi.json/route";
import { apiDocument } from "@/app/api/v1/routes";
import { catalogueTexts, documentTexts, icuLiteral, localizedDocument } from "@/lib/adapters/openapi/localize";
import { argumentsOf } from "@/lib/base/i18n/arguments";
import { format } from "@/lib/base/i18n/format";
import { catalogue } from "@/lib/base/i18n";
import { openApiMessages } from "@/scripts/openapi-messages";
import { call } from "../support/fixtures";

const root = path.join(import.meta.dirname, "../..");
const english = documentTexts(apiDocument());

describe("the OpenAPI document's texts in the catalogues", () => {
  it("messages/en.json holds the English document's texts (npm run i18n:openapi writes them)", () => {
    const onDisk = (JSON.parse(readFileSync(path.join(root, "messages/en.json"), "utf8")) as { openapi: unknown }).openapi;
    expect(onDisk, "the openapi part of messages/en.json is stale: run npm run i18n:openapi").toEqual(openApiMessages());
    expect(catalogueTexts("en")).toEqual(english);
  });

  it("messages/ro.json translates every operation, webhook and tag, keyed as the English part, with no argument", () => {
    const en = catalogue("en").openapi;
    const ro = catalogue("ro").openapi;
    expect(Object.keys(ro.operations).sort()).toEqual(Object.keys(en.operations).sort());
    expect(Object.keys(ro.tags).sort()).toEqual(Object.keys(en.tags).sort());
    expect(Object.keys(ro.tagNames).sort()).toEqual(Object.keys(en.tagNames).sort());
    const romanian = catalogueTexts("ro");
    for (const [id, text] of Object.entries(romanian.operations)) {
      expect(text.summary.trim(), id).not.toBe("");
      expect(text.summary, id).not.toBe(english.operations[id].summary);
      expect(text.description, id).not.toBe(english.operations[id].description);
      // A path parameter such as {code} is quoted text, never an argument left unfilled.
      expect(argumentsOf((ro.operations as Record<string, { summary: string; description: string }>)[id].description), id).toEqual([]);
      // The permission note names the same permission as the English one.
      expect(text.description.match(/`[a-z]+(:[a-z]+| key)`\.$/)?.[0], id).toBe(
        english.operations[id].description.match(/`[a-z]+(:[a-z]+| key)`\.$/)?.[0],
      );
    }
    for (const [name, text] of Object.entries(romanian.tags)) expect(text, name).not.toBe(english.tags[name]);
    expect(romanian.info).not.toBe(english.info);
    expect(romanian.title).not.toBe(english.title);
    for (const name of ["Keys", "Vocabulary", "Listings", "Photos", "Events", "Webhooks"])
      expect(romanian.tagNames[name], name).not.toBe(english.tagNames[name]);
  });

  it("writes any text as an ICU message that reads as written", () => {
    for (const text of ["GET /account/listings/{code}", "the app's key", "colleagues' listings", "'{x}'", "a } b { c", "''", "{a}'s"])
      expect(format("en", icuLiteral(text)), text).toBe(text);
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z '{}`.:<>#|]*$/), (text) => format("en", icuLiteral(text)) === text),
      { numRuns: 300 },
    );
  });
});

describe("GET /openapi.json?locale=", () => {
  it("answers the English document unchanged without locale, whatever Accept-Language says", async () => {
    const expected = JSON.stringify(apiDocument());
    for (const headers of [{}, { "accept-language": "ro-RO,ro;q=0.9" }] as Record<string, string>[]) {
      const res = await call(openapi, { path: "/openapi.json", headers });
      expect(res.status).toBe(200);
      expect(res.text).toBe(expected);
      expect(res.headers.get("content-language")).toBe("en");
    }
    expect((await call(openapi, { path: "/openapi.json?locale=en" })).text).toBe(expected);
  });

  it("answers the Romanian title, tag names and summaries and descriptions of operations, webhooks and tags with locale=ro", async () => {
    const res = await call(openapi, { path: "/openapi.json?locale=ro" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-language")).toBe("ro");
    const document = res.json!;
    expect(document.paths["/ping"].get.summary).toBe("Verificarea unei chei");
    expect(document.paths["/ping"].get.description).toContain("Permisiune: `any key`.");
    expect(document.paths["/listings/{code}"].patch.summary).toBe("Editarea unui anunț (JSON Merge Patch)");
    expect(document.webhooks["listing.published"].post.summary).toBe("Anunț publicat");
    expect(document.webhooks["listing.edited_in_portal"].post.description).toContain("`GET /account/listings/{code}`");
    expect(document.tags.find((tag: { name: string }) => tag.name === "Webhooks").description).toMatch(/^Ce trimite platforma/);
    expect(document.info.description).toMatch(/^Publicați și gestionați/);
    expect(document.info.title).toBe("API de publicare a anunțurilor");
    // The names stay the English ones, by which clients and the operations' `tags` refer to them; the reference shows `x-displayName`.
    expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual(apiDocument().tags!.map((tag) => tag.name));
    expect(document.tags.find((tag: { name: string }) => tag.name === "Listings")["x-displayName"]).toBe("Anunțuri");
  });

  it("changes only those texts: the rest of the Romanian document is the English one", () => {
    const document = apiDocument();
    const romanian = localizedDocument(document, "ro");
    expect(romanian).not.toBe(document);
    // Putting the English texts back gives the English document exactly.
    const restored = structuredClone(romanian) as typeof document;
    restored.info.title = english.title;
    restored.info.description = english.info;
    for (const tag of restored.tags ?? []) {
      delete (tag as { "x-displayName"?: string })["x-displayName"];
      tag.description = english.tags[tag.name];
    }
    for (const item of [...Object.values(restored.paths ?? {}), ...Object.values(restored.webhooks ?? {})])
      for (const operation of Object.values(item ?? {}) as { operationId: string; summary: string; description: string }[]) {
        operation.summary = english.operations[operation.operationId].summary;
        operation.description = english.operations[operation.operationId].description;
      }
    expect(JSON.stringify(restored)).toBe(JSON.stringify(document));
    expect(localizedDocument(document, "en")).toBe(document);
  });

  it("refuses another locale with 422", async () => {
    const res = await call(openapi, { path: "/openapi.json?locale=de" });
    expect(res.status).toBe(422);
  });
});
