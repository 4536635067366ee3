/** A JSON Pointer (RFC 6901) to the member at `path`: `~` and `/` inside a name are escaped. */
export const pointerOf = (path: readonly PropertyKey[]): string =>
  path.map((part) => `/${String(part).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
