import { apply } from "json-merge-patch";

/** JSON Merge Patch (RFC 7396) applied to a copy: the stored document is never mutated. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  return apply(structuredClone(target), structuredClone(patch));
}
