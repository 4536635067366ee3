import type { FieldError, FieldErrorOf } from "@/lib/base/errors";
import type { FieldParams, NoParams, ValidationCode } from "@/lib/base/i18n/keys";
import { unitTypeFields, writeFieldNames } from "@/lib/domain/vocabulary";
import type { ListingWarning } from "./types";

const fieldOrder = new Map<string, number>(writeFieldNames.map((name, index) => [name, index]));
const memberOrder = new Map<string, number>(Object.keys(unitTypeFields).map((name, index) => [name, index]));

/** Errors and warnings of one validation, ordered as `writeFieldNames`, then pointer, then code. */
export class Report {
  private readonly errorList: FieldError[] = [];
  private readonly warningList: ListingWarning[] = [];
  /** `pointer` and `code` of every error, so that a body with many bad items is not quadratic. */
  private readonly known = new Set<string>();

  /** An error at `pointer`, with the parameters its code's detail needs (none for most codes). */
  error<C extends ValidationCode>(
    pointer: string,
    code: C,
    ...[params]: NoParams extends FieldParams<C> ? [params?: FieldParams<C>] : [params: FieldParams<C>]
  ): void {
    this.add((params ? { pointer, code, params } : { pointer, code }) as FieldErrorOf<C> as FieldError);
  }

  add(...errors: FieldError[]): void {
    for (const error of errors) {
      const identity = `${error.code} ${error.pointer}`;
      if (this.known.has(identity)) continue;
      this.known.add(identity);
      this.errorList.push(error);
    }
  }

  warn(pointer: string, code: string): void {
    this.warningList.push({ pointer, code });
  }

  /** Whether the field, or anything inside it, already has an error. */
  hasError(field: string): boolean {
    return this.errorList.some((error) => error.pointer === `/${field}` || error.pointer.startsWith(`/${field}/`));
  }

  get ok(): boolean {
    return this.errorList.length === 0;
  }

  errors(): FieldError[] {
    return [...this.errorList].sort((a, b) => comparePointers(a.pointer, b.pointer) || compare(a.code, b.code));
  }

  warnings(): ListingWarning[] {
    return [...this.warningList].sort((a, b) => comparePointers(a.pointer, b.pointer) || compare(a.code, b.code));
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Fields in table order (members outside it last, by name), then segment by segment: indexes
 * numerically, unit type members in their table order, other names alphabetically.
 */
function comparePointers(a: string, b: string): number {
  const [left, right] = [a.split("/").slice(1), b.split("/").slice(1)];
  const rank = (field: string) => fieldOrder.get(field) ?? fieldOrder.size;
  const byField = rank(left[0] ?? "") - rank(right[0] ?? "");
  if (byField !== 0) return byField;
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const [x, y] = [left[index], right[index]];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    if (x === y) continue;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Number(x) - Number(y);
    const [xRank, yRank] = [memberOrder.get(x), memberOrder.get(y)];
    return xRank !== undefined && yRank !== undefined ? xRank - yRank : compare(x, y);
  }
  return 0;
}
