import { readdirSync } from "node:fs";
import path from "node:path";
import { compile } from "@mdx-js/mdx";
import rehypeSlug from "rehype-slug";
import remarkGfm from "remark-gfm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RefusalTable, ValidationTable } from "@/components/docs-error-tables";
import { refusalRows } from "@/lib/adapters/docs/error-catalogue";
import { errorStatus } from "@/lib/base/errors";
import { codeSamples, guide, guideSource } from "@/lib/adapters/docs/content";
import { guideSlugs } from "@/lib/adapters/docs/guides";
import { searchGuides } from "@/lib/adapters/docs/search";
import { catalogue, locales } from "@/lib/base/i18n";

const root = path.join(import.meta.dirname, "../../..");

describe("the guides' files", () => {
  it("are exactly the registered guides, in both languages", () => {
    for (const locale of locales) {
      const files = readdirSync(path.join(root, "content/docs", locale)).sort();
      expect(files).toEqual(guideSlugs.map((slug) => `${slug}.mdx`).sort());
    }
  });

  it.each(guideSlugs)("%s: a title, a summary, and the same structure in Romanian and English", (slug) => {
    const [ro, en] = [guide("ro", slug), guide("en", slug)];
    for (const one of [ro, en]) {
      expect(one.title.length).toBeGreaterThan(3);
      expect(one.summary.length).toBeGreaterThan(40);
    }
    expect(ro.title).not.toBe(en.title);
    expect(ro.headings.map((heading) => heading.depth)).toEqual(en.headings.map((heading) => heading.depth));
    const shape = (locale: "ro" | "en") =>
      codeSamples(guideSource(locale, slug)).map(({ lang, title, tested }) => ({ lang, title, tested }));
    expect(shape("ro")).toEqual(shape("en"));
    // Romanian is written with its diacritics (ă, â, î, ș, ț), never the cedilla forms ş and ţ.
    expect(guideSource("ro", slug)).toMatch(/[ăâîșț]/);
    expect(guideSource("ro", slug)).not.toMatch(/[şţŞŢ]/);
  });

  it.each(guideSlugs.flatMap((slug) => locales.map((locale) => [slug, locale] as const)))(
    "%s (%s) compiles as MDX, and its contents' anchors are the ids its headings get",
    async (slug, locale) => {
      const compiled = String(
        await compile(guideSource(locale, slug), { remarkPlugins: [remarkGfm], rehypePlugins: [rehypeSlug], development: false }),
      );
      for (const heading of guide(locale, slug).headings) expect(compiled).toContain(`id: "${heading.id}"`);
    },
  );
});

describe("searchGuides", () => {
  it("finds a guide by a word of its body in each language, case and diacritics ignored, pointing at the section", () => {
    // Several guides speak of photos (the photos guide first): each result points at its own section.
    const quickstartIn = (results: ReturnType<typeof searchGuides>) => results.find((result) => result.guide.slug === "quickstart");
    const en = quickstartIn(searchGuides("en", "cover"));
    expect(en).toMatchObject({ heading: { id: "6-add-a-photo" } });
    expect(en?.snippet.toLowerCase()).toContain("cover");
    expect(quickstartIn(searchGuides("ro", "coperta"))).toMatchObject({ heading: { id: "6-adaugă-o-fotografie" } });
    expect(searchGuides("ro", "FOTOGRAFIILE PROCESATE")[0]).toMatchObject({
      guide: { slug: "photos" },
      heading: { id: "cât-timp-fotografiile-sunt-procesate" },
    });
    expect(quickstartIn(searchGuides("ro", "procesata"))).toMatchObject({ heading: { id: "6-adaugă-o-fotografie" } });
  });

  it("finds words of code samples and headings, and needs every word of the query", () => {
    expect(searchGuides("en", "verifyWebhook").map((result) => result.guide.slug)).toEqual(
      expect.arrayContaining(["quickstart", "webhooks"]),
    );
    expect(searchGuides("ro", "hmac.compare_digest")[0]).toMatchObject({
      guide: { slug: "webhooks" },
      heading: { id: "python-cu-biblioteca-standard" },
    });
    expect(searchGuides("en", "sandbox moderation approve").map((result) => result.guide.slug)).toEqual(
      expect.arrayContaining(["quickstart", "lifecycle"]),
    );
    expect(searchGuides("en", "photo zanzibar")).toEqual([]);
    expect(searchGuides("en", "a")).toEqual([]);
  });

  it.each([
    ["en", "If-Match 412", "merge-patch"],
    ["ro", "merge patch null", "merge-patch"],
    ["en", "Idempotent-Replayed", "idempotency"],
    ["ro", "cheie de idempotenta", "idempotency"],
    ["en", "next_cursor", "pagination"],
    ["ro", "cursor opac", "pagination"],
    ["en", "Retry-After back-off", "limits"],
    ["ro", "limite de marime si de numar", "limits"],
    ["en", "Sunset Deprecation", "versioning"],
    ["ro", "coduri retrase", "versioning"],
    ["en", "additions within version 1", "changelog"],
    ["ro", "editia 1.0.0", "changelog"],
  ] as const)("(%s) %s finds the %s guide first", (locale, query, slug) => {
    expect(searchGuides(locale, query)[0]?.guide.slug).toBe(slug);
  });
});

describe("the errors guide's tables", () => {
  // The spec's codes (Errors: refusals, validation codes per field, cross-field codes): each must be in the guide.
  const specCodes = {
    refusals: [
      "unauthenticated",
      "missing_ability",
      "forbidden",
      "not_found",
      "listing_busy",
      "listing_action_refused",
      "listing_changed_meanwhile",
      "too_many_requests",
    ],
    validation: [
      "required",
      "required_if",
      "required_unless",
      "required_with",
      "required_without",
      "present",
      "string",
      "integer",
      "numeric",
      "boolean",
      "array",
      "decimal",
      "min",
      "max",
      "between",
      "gt",
      "gte",
      "size",
      "enum",
      "in",
      "distinct",
      "regex",
      "date_format",
      "url",
      "email",
      "prohibits",
      "iso_country",
      "meaningful_text",
      "phone_number_valid",
      "valid_parcel_ring",
      "invalid_value",
      "invalid",
      "transaction_invalid_for_type",
      "floor_above_total",
      "upfront_above_price",
      "below_type_minimum",
      "above_type_maximum",
      "bedrooms_above_rooms",
      "built_above_land",
      "unfurnished_with_appliances",
      "heating_none_exclusive",
      "delivery_in_past",
      "complex_needs_complete_type",
      "area_to_below_from",
      "floor_range_invalid",
      "price_currency_not_offered",
      "price_currency_unavailable",
      "price_above_cap",
    ],
  };

  it.each(locales)(
    "(%s) list every code of the error registry and of the catalogue, with its status, and every code of the spec",
    (locale) => {
      const refusals = renderToStaticMarkup(createElement(RefusalTable, { locale }));
      for (const [code, status] of Object.entries(errorStatus)) {
        expect(refusals).toContain(`<tr id="code-${code}"><td>${status}</td><td><code>${code}</code></td>`);
      }
      for (const row of refusalRows(locale)) expect(row.fix.length).toBeGreaterThan(10);
      const validation = renderToStaticMarkup(createElement(ValidationTable, { locale }));
      for (const code of Object.keys(catalogue(locale).api.validation)) expect(validation).toContain(`<tr id="validation-${code}">`);
      for (const code of specCodes.refusals) expect(refusals).toContain(`<code>${code}</code>`);
      for (const code of specCodes.validation) expect(validation).toContain(`<tr id="validation-${code}">`);
      expect(validation).toContain("<td><code>floor_above_total</code></td><td><code>/floor</code></td>");
      expect(guideSource(locale, "errors")).toMatch(/<RefusalTable \/>[\s\S]*<ValidationTable \/>/);
    },
  );
});
