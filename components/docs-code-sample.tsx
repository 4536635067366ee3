import { cloneElement, isValidElement, type ComponentProps, type ReactNode } from "react";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { CopySample } from "./docs-samples";

/** A text of the samples and what the page shows in its place. */
export interface SampleValue {
  text: string;
  shown: ReactNode;
}

interface Match {
  start: number;
  end: number;
  shown: ReactNode;
}

function textOf(node: ReactNode): string {
  if (node == null || typeof node === "boolean") return "";
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return "";
}

/**
 * The highlighted code with each value's text replaced by what is shown for it. The highlighter
 * splits a text such as `process.env.LISTINGS_API_KEY!` over several spans, so matches are found in
 * the code's whole text and the replacement goes where the match starts, the rest of it left out.
 */
export function withValues(code: ReactNode, values: readonly SampleValue[]): ReactNode[] {
  const whole = textOf(code);
  const matches: Match[] = [];
  for (const { text, shown } of values)
    for (let at = whole.indexOf(text); at >= 0; at = whole.indexOf(text, at + text.length))
      matches.push({ start: at, end: at + text.length, shown });
  matches.sort((a, b) => a.start - b.start);
  const kept = matches.filter((match, index) => index === 0 || match.start >= matches[index - 1].end);
  let offset = 0;
  const pieces = (text: string): ReactNode[] => {
    const start = offset;
    const end = (offset += text.length);
    const out: ReactNode[] = [];
    let at = start;
    for (const match of kept) {
      if (match.end <= at) continue;
      if (match.start >= end) break;
      if (match.start > at) out.push(text.slice(at - start, match.start - start));
      if (match.start >= start) out.push(match.shown);
      at = Math.min(match.end, end);
    }
    if (at < end) out.push(text.slice(at - start));
    return out;
  };
  const rebuild = (node: ReactNode): ReactNode[] => {
    if (node == null || typeof node === "boolean") return [];
    if (typeof node === "string" || typeof node === "number") return pieces(String(node));
    if (Array.isArray(node)) return node.flatMap(rebuild);
    // At least one child argument: with none, cloneElement would keep the element's own children.
    if (isValidElement<{ children?: ReactNode }>(node)) return [cloneElement(node, undefined, null, ...rebuild(node.props.children))];
    return [node];
  };
  return rebuild(code);
}

/**
 * A guide's code block (the `pre` of the MDX): under its file name when the fence gives one, with a
 * Copy button, the reader's values in place of the guide's (`values`), and focusable so that it
 * scrolls by keyboard.
 */
export function DocsCodeSample({
  "data-title": title,
  children,
  values,
  texts,
  ...props
}: ComponentProps<"pre"> & { "data-title"?: string; values: readonly SampleValue[]; texts: PageMessages["secret"] }) {
  return (
    <figure className="code-sample">
      {title ? <figcaption>{title}</figcaption> : null}
      <CopySample label={title} texts={texts} />
      <pre tabIndex={0} {...props}>
        {withValues(children, values)}
      </pre>
    </figure>
  );
}
