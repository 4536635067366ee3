/**
 * A development's unit types in the listing form: one row of controls per unit type, named
 * `unit_types.<row>.<member>` (the floors as two selects, `floors_from` and `floors_to`). Rows keep
 * the number they were drawn with, so removing one in the browser leaves a gap; the posted rows are
 * read in the order of their numbers, and rows left blank are dropped, so the API's pointers
 * (`/unit_types/2/area_sqm_to`) count the rows that were sent. No vocabulary import: the browser's
 * editor uses this module too.
 */

/** The controls of one row, in the order they are shown. */
export const rowControls = ["label", "rooms", "area_sqm_from", "area_sqm_to", "floors_from", "floors_to", "units_count", "price"] as const;

export type RowControl = (typeof rowControls)[number];

/** One row of the form as typed: a text per control, empty when not filled. */
export type RowTexts = Record<RowControl, string>;

/** The members of a row in the API's pointers; the two floor selects answer for `floors`. */
const pointerMembers = new Set(["label", "rooms", "area_sqm_from", "area_sqm_to", "floors", "units_count", "price"]);

const numericControls = new Set<RowControl>(["rooms", "area_sqm_from", "area_sqm_to", "units_count", "price"]);

/** A typed value longer than this is refused by every member's bounds anyway; the rest is not kept. */
const longestText = 1_000;

export const rowControlName = (row: number, control: RowControl | "floors") => `unit_types.${row}.${control}`;

export const blankRow = (): RowTexts => Object.fromEntries(rowControls.map((control) => [control, ""])) as RowTexts;

const isBlank = (row: RowTexts) => rowControls.every((control) => row[control].trim() === "");

const controlPattern = /^unit_types\.(\d{1,4})\.(\w+)$/;

/** Rows by the number in their controls' names, lowest first, from (name, text) pairs. */
function rowsOf(entries: Iterable<[string, unknown]>): RowTexts[] {
  const rows = new Map<number, RowTexts>();
  for (const [name, value] of entries) {
    const match = controlPattern.exec(name);
    if (!match || typeof value !== "string" || !(rowControls as readonly string[]).includes(match[2])) continue;
    const number = Number(match[1]);
    const row = rows.get(number) ?? blankRow();
    row[match[2] as RowControl] = value.slice(0, longestText);
    rows.set(number, row);
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

/**
 * The unit type rows of a posted form, blank ones dropped. More than `maxRows` are cut to one over
 * the limit: still refused by the validator (`max`), without carrying an unbounded post further.
 */
export function postedUnitTypeRows(form: FormData, maxRows: number): RowTexts[] {
  return rowsOf(form.entries())
    .filter((row) => !isBlank(row))
    .slice(0, maxRows + 1);
}

/** The rows the form's values hold (after a refusal, or from a stored listing), in order. */
export const unitTypeRowsOfValues = (values: Record<string, string>): RowTexts[] => rowsOf(Object.entries(values));

/** Rows as the form's values: `unit_types.0.label` → "Două camere". */
export function unitTypeValues(rows: RowTexts[]): Record<string, string> {
  return Object.fromEntries(
    rows.flatMap((row, index) => rowControls.flatMap((control) => (row[control] ? [[rowControlName(index, control), row[control]]] : []))),
  );
}

/** A typed number as the API takes it (a decimal comma accepted); anything else as typed, for the validator to refuse. */
export function numberOrText(text: string): number | string {
  const number = Number(text.replace(",", "."));
  return Number.isFinite(number) ? number : text;
}

/**
 * One row as the write document's `unit_types[]` item: members left empty are left out. A floor
 * range with one end chosen is sent with that end only, so the validator names the missing one.
 */
export function unitTypeItem(row: RowTexts): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  const label = row.label.trim();
  if (label) item.label = label;
  for (const control of numericControls) {
    const text = row[control].trim();
    if (text) item[control] = numberOrText(text);
  }
  const [from, to] = [row.floors_from.trim(), row.floors_to.trim()];
  if (from || to) item.floors = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  return item;
}

/** A stored `unit_types` array as form rows; anything that is not a row object is skipped. */
export function storedUnitTypeRows(stored: unknown): RowTexts[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return [];
    const member = item as Record<string, unknown>;
    const row = blankRow();
    for (const control of ["label", ...numericControls] as RowControl[]) {
      const value = member[control];
      if (typeof value === "string" || typeof value === "number") row[control] = String(value);
    }
    const floors = member.floors as { from?: unknown; to?: unknown } | null | undefined;
    if (typeof floors?.from === "string") row.floors_from = floors.from;
    if (typeof floors?.to === "string") row.floors_to = floors.to;
    return [row];
  });
}

/**
 * The form control an error's pointer is about: a unit type row's member (`/unit_types/2/area_sqm_to`
 * → `unit_types.2.area_sqm_to`; anything under `floors` → the row's floors), else the field the
 * pointer begins with (`/unit_types`, `/parcel/3/0` → `parcel`).
 */
export function controlOfPointer(pointer: string): string {
  const [, field = "", row, member] = pointer.split("/");
  if (field === "unit_types" && row !== undefined && /^\d{1,4}$/.test(row) && member !== undefined && pointerMembers.has(member)) {
    return rowControlName(Number(row), member as RowControl | "floors");
  }
  return field;
}

/** The row number and member of a unit type control's name, as `controlOfPointer` gives it. */
export function rowControlOf(name: string): { row: number; member: string } | undefined {
  const match = controlPattern.exec(name);
  return match ? { row: Number(match[1]), member: match[2] } : undefined;
}
