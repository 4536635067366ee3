import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable } from "@/components/data-table";
import { FieldGroup, FormField } from "@/components/forms/form-field";

const body = createElement("tbody", null, createElement("tr", null, createElement("td", null, "a row")));

describe("the list pages' table", () => {
  it("shows the empty state, and no table, when there are no rows", () => {
    const html = renderToStaticMarkup(DataTable({ rows: 0, empty: "Nothing yet.", label: "Keys", children: body }));
    expect(html).toBe('<div class="empty">Nothing yet.</div>');
  });

  it("puts the table in a scroll region named by its label and reachable by the keyboard", () => {
    const html = renderToStaticMarkup(DataTable({ rows: 1, empty: "Nothing yet.", label: "Keys", variant: "words", children: body }));
    expect(html).toMatch(/^<div class="table-wrap" role="region" aria-label="Keys" tabindex="0"><table class="data words-table">/);
    expect(html).toContain("a row");
    expect(html).not.toContain("Nothing yet.");
  });

  it("names the region by a caption (or a heading) when given its id", () => {
    const html = renderToStaticMarkup(
      DataTable({ rows: 1, empty: "", caption: "Deliveries", captionId: "c", labelledBy: "c", variant: "log", children: body }),
    );
    expect(html).toContain('role="region" aria-labelledby="c" tabindex="0"');
    expect(html).toContain('<table class="data log-table"><caption id="c">Deliveries</caption>');
  });
});

describe("a form field", () => {
  it("labels its control and describes it by its hint and its error, marking it invalid", () => {
    const html = renderToStaticMarkup(
      FormField({
        id: "since",
        label: "Since",
        hint: "A hint.",
        error: "An error.",
        children: (control) => createElement("select", { ...control, name: "since" }),
      }),
    );
    expect(html).toContain('<label for="since">Since</label>');
    expect(html).toContain('<select id="since" aria-invalid="true" aria-describedby="since-hint since-error" name="since">');
    expect(html).toContain('<p class="hint" id="since-hint">A hint.</p>');
    expect(html).toContain('<p class="field-error" id="since-error">An error.</p>');
  });

  it("without an error, is neither invalid nor described by one", () => {
    const html = renderToStaticMarkup(
      FormField({ id: "name", label: "Name", children: (control) => createElement("input", { ...control, name: "name" }) }),
    );
    expect(html).toContain('<input id="name" name="name"/>');
    expect(html).not.toContain("aria-");
  });

  it("groups several controls under a legend, described by the hint and error read before them", () => {
    const html = renderToStaticMarkup(
      FieldGroup({ id: "events", legend: "Events", error: "Choose one.", children: createElement("input", { type: "checkbox" }) }),
    );
    expect(html).toBe(
      '<fieldset id="events" class="field" aria-describedby="events-error"><legend>Events</legend><p class="field-error" id="events-error">Choose one.</p><input type="checkbox"/></fieldset>',
    );
  });
});
