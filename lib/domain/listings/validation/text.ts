import type { z } from "zod";
import type { FieldIssue } from "@/lib/base/errors";
import { pointerOf } from "@/lib/base/validation/pointer";
import type { Report } from "./report";

/**
 * Control characters (Unicode category Cc: U+0000–U+001F and U+007F–U+009F) other than tab, line
 * feed and carriage return. PostgreSQL `text` cannot hold U+0000 at all; the others would reach
 * portals and feeds as invisible garbage.
 */
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Why a text cannot be stored (a key of `validation_reasons`), or undefined when it can. */
export type UnstorableReason = "control_character" | "lone_surrogate";

/**
 * Whether a text can be stored as it is. A lone UTF-16 surrogate (`"\ud800"`, valid in a JSON
 * string) is no character at all: `jsonb` refuses it and UTF-8 cannot encode it.
 */
export function unstorableReason(text: string): UnstorableReason | undefined {
  if (controlCharacter.test(text)) return "control_character";
  if (!text.isWellFormed()) return "lone_surrogate";
  return undefined;
}

/** The same rule as a zod refinement (`.superRefine(refineStorable)`): `invalid` with the reason. */
export function refineStorable(text: string, ctx: z.RefinementCtx): void {
  const reason = unstorableReason(text);
  if (reason) ctx.addIssue({ code: "custom", message: reason, params: { code: "invalid", params: { reason } } satisfies FieldIssue });
}

interface Node {
  value: unknown;
  name: string | number;
  parent?: Node;
}

const pathOf = (node: Node): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let at: Node | undefined = node; at; at = at.parent) path.push(at.name);
  return path.reverse();
};

/**
 * Refuses every unstorable text anywhere inside one field's value (`invalid` at the text's own
 * pointer; member names aside, as those are never stored). Walks without recursion and builds a
 * pointer only for a refused text, so a value nested however deep costs neither stack nor copies.
 * True when something was refused.
 */
export function refuseUnstorableText(value: unknown, field: string, report: Report): boolean {
  let refused = false;
  const pending: Node[] = [{ value, name: field }];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const parent = node;
    if (typeof node.value === "string") {
      const reason = unstorableReason(node.value);
      if (reason) {
        report.error(pointerOf(pathOf(node)), "invalid", { reason });
        refused = true;
      }
    } else if (Array.isArray(node.value)) {
      node.value.forEach((item, index) => pending.push({ value: item, name: index, parent }));
    } else if (node.value !== null && typeof node.value === "object") {
      for (const [name, member] of Object.entries(node.value)) pending.push({ value: member, name, parent });
    }
  }
  return refused;
}
