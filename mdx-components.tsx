import type { MDXComponents } from "mdx/types";
import type { ComponentProps } from "react";

/**
 * How the guides' Markdown becomes the portal's HTML (@next/mdx reads this file): a code block is a
 * focusable scrolling region (so it scrolls by keyboard) under its file name when the fence gives one,
 * and a table scrolls inside its own box on a narrow screen instead of widening the page.
 */
const components: MDXComponents = {
  pre: ({ "data-title": title, ...props }: ComponentProps<"pre"> & { "data-title"?: string }) =>
    title ? (
      <figure className="code-sample">
        <figcaption>{title}</figcaption>
        <pre tabIndex={0} {...props} />
      </figure>
    ) : (
      <pre tabIndex={0} {...props} />
    ),
  table: (props: ComponentProps<"table">) => (
    <div className="table-wrap" tabIndex={0}>
      <table className="data" {...props} />
    </div>
  ),
};

export function useMDXComponents(): MDXComponents {
  return components;
}
