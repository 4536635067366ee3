import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DocsCodeSample, withValues, type SampleValue } from "@/components/docs-code-sample";
import { SampleKeyValue } from "@/components/docs-samples";
import { pageMessages } from "@/lib/base/i18n/page-messages";

// Code as rehype-highlight gives it to the page: the highlighter's spans around parts of the text.
const span = (className: string, ...children: ReactNode[]) => createElement("span", { className }, ...children);
const typescript = createElement(
  "code",
  { className: "hljs language-ts" },
  "const client = ",
  span("hljs-title function_", "createClient"),
  "({ ",
  span("hljs-attr", "baseUrl"),
  ": ",
  span("hljs-string", '"http://localhost:3000/api/v1"'),
  ", ",
  span("hljs-attr", "apiKey"),
  ": process.",
  span("hljs-property", "env"),
  ".",
  span("hljs-property", "LISTINGS_API_KEY"),
  "! });",
);
const shell = createElement(
  "code",
  { className: "hljs language-sh" },
  'curl -s "http://localhost:3000/api/v1/listings/',
  span("hljs-variable", "$LISTING_CODE"),
  '" -H ',
  span("hljs-string", '"Authorization: Bearer ', span("hljs-variable", "$LISTINGS_API_KEY"), '"'),
);

const text = (nodes: ReactNode) =>
  renderToStaticMarkup(createElement("pre", null, nodes))
    .replace(/<[^>]+>/g, "")
    .replaceAll("&quot;", '"');

const values: SampleValue[] = [
  { text: "http://localhost:3000", shown: "https://listings.example.com" },
  { text: "process.env.LISTINGS_API_KEY!", shown: '"key_1|svc_test_2"' },
  { text: "$LISTINGS_API_KEY", shown: "key_1|svc_test_2" },
  { text: "$LISTING_CODE", shown: "K7M2XQ4P" },
];

describe("a guide's code sample with the reader's values", () => {
  it("replaces a text the highlighter split over several spans, and keeps the highlighting around it", () => {
    const shown = withValues(typescript, values);
    expect(text(shown)).toBe(
      'const client = createClient({ baseUrl: "https://listings.example.com/api/v1", apiKey: "key_1|svc_test_2" });',
    );
    expect(renderToStaticMarkup(createElement("pre", null, shown))).toContain('<span class="hljs-title function_">createClient</span>');
  });

  it("replaces values inside a highlighted string, each where it stands", () => {
    expect(text(withValues(shell, values))).toBe(
      'curl -s "https://listings.example.com/api/v1/listings/K7M2XQ4P" -H "Authorization: Bearer key_1|svc_test_2"',
    );
  });

  it("leaves code without the values as it is", () => {
    expect(text(withValues(shell, []))).toBe(text(shell));
  });

  it("shows the guide's own text for the key until the tab has one", () => {
    const keyed = withValues(shell, [
      { text: "$LISTINGS_API_KEY", shown: createElement(SampleKeyValue, { form: "shell", original: "$LISTINGS_API_KEY" }) },
    ]);
    expect(text(keyed)).toBe(text(shell));
  });

  it("shows the file name and a Copy button named after it", () => {
    const secret = pageMessages("en").secret;
    const html = renderToStaticMarkup(
      createElement(DocsCodeSample, { "data-title": "create-listing.ts", values, texts: secret }, typescript),
    );
    expect(html).toMatch(/^<figure class="code-sample"><figcaption>create-listing.ts<\/figcaption>/);
    expect(html).toContain(
      `<button type="button" class="secondary">${secret.copy}<span class="visually-hidden"> create-listing.ts</span></button>`,
    );
    expect(html).toContain('<pre tabindex="0">');
  });
});
