// A rehype plugin for the guides (next.config.ts names it by path, as Turbopack needs): a fenced block's
// `title="file.ts"` (```ts title="create-listing.ts" test) becomes the `data-title` of its <pre>, which
// mdx-components.tsx shows above the code. MDX otherwise drops the fence's meta string.

/** @param {any} node */
function walk(node) {
  if (node.type === "element" && node.tagName === "pre") {
    const code = node.children.find((child) => child.type === "element" && child.tagName === "code");
    const title = /(?:^|\s)title="([^"]+)"/.exec(code?.data?.meta ?? "")?.[1];
    if (title) node.properties = { ...node.properties, dataTitle: title };
  }
  for (const child of node.children ?? []) walk(child);
}

export default function rehypeCodeTitle() {
  return (tree) => walk(tree);
}
