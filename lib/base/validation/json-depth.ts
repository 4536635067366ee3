/**
 * Deepest nesting of objects and arrays accepted in a body: far above any real listing (which nests
 * four levels), far below what recursive code (validation, redaction, serialisation) can walk.
 */
export const maxNestingDepth = 64;

/** Depth of the deepest object or array, walked without recursion so no depth can overflow the stack. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > maxNestingDepth) return deepest;
    for (const member of Object.values(node)) pending.push([member, depth + 1]);
  }
  return deepest;
}
