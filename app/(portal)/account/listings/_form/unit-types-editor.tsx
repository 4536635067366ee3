"use client";

import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { FieldNotes, describedBy } from "@/components/forms/form-field";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import type { FormFieldView } from "@/lib/adapters/portal/listing-form";
import {
  blankRow,
  rowControlName,
  rowControlOf,
  unitTypeRowsOfValues,
  type RowControl,
  type RowTexts,
} from "@/lib/adapters/portal/unit-type-rows";
import { ListingField, fieldId } from "./listing-field";

type Texts = PageMessages["listingForm"];

/** Empty rows drawn after the filled ones: without JavaScript they are the only way to add a unit type. */
const blankRowsShown = 2;

/** A row as drawn: `key` names its controls for as long as it lives, its errors are those of the last refusal. */
interface Row {
  key: number;
  texts: RowTexts;
  errors: Record<string, string>;
}

const addButtonId = "f-unit_types-add";

/** The rows the form's values hold, each with its errors, then the blank rows, at most `maxRows` in all. */
function initialRows(values: Record<string, string>, errors: Record<string, string>, maxRows: number): Row[] {
  const filled = unitTypeRowsOfValues(values);
  const texts = [...filled, ...Array.from({ length: blankRowsShown }, blankRow)].slice(0, Math.max(maxRows, filled.length));
  return texts.map((row, key) => ({
    key,
    texts: row,
    errors: Object.fromEntries(
      Object.entries(errors).flatMap(([name, error]) => {
        const control = rowControlOf(name);
        return control?.row === key ? [[control.member, error]] : [];
      }),
    ),
  }));
}

const subscribeToNothing = () => () => {};

/**
 * A development's unit types: a group of controls per row, each member labelled, bounded and
 * explained as the form's other fields are, with the API's error next to the member it names. The
 * stored rows come first, then blank ones, so the form works without JavaScript; with it, a row is
 * added or removed in place, the focus goes to the row added (or the neighbour of the one removed)
 * and the change is announced.
 */
/** What the form gives each of its controls: the field, the values and errors of the whole form, the texts. */
export interface FormControlProps {
  field: FormFieldView;
  values: Record<string, string>;
  errors: Record<string, string>;
  texts: Texts;
}

export function UnitTypesEditor({ field, values, errors, texts }: FormControlProps) {
  const format = useFormat();

  const maxRows = field.maxItems ?? 0;
  // False on the server and while hydrating, true once the buttons can work.
  const scripted = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const [rows, setRows] = useState(() => initialRows(values, errors, maxRows));
  const nextKey = useRef(rows.length);
  const focusNext = useRef<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    if (focusNext.current) document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  }, [rows]);

  const add = () => {
    const key = nextKey.current++;
    focusNext.current = fieldId(rowControlName(key, "label"));
    setRows([...rows, { key, texts: blankRow(), errors: {} }]);
    setAnnouncement(format(texts.unitTypes.added, { n: rows.length + 1 }));
  };
  const remove = (position: number) => {
    const left = rows.filter((_, index) => index !== position);
    const neighbour = left[position] ?? left[position - 1];
    focusNext.current = neighbour ? fieldId(rowControlName(neighbour.key, "label")) : addButtonId;
    setRows(left);
    setAnnouncement(format(texts.unitTypes.removed, { n: position + 1 }));
  };

  const id = fieldId(field.name);
  const error = errors[field.name];
  return (
    <fieldset id={id} className="stack unit-types wide" aria-describedby={describedBy(id, texts.unitTypes.hint, error)}>
      <legend>{field.label}</legend>
      <FieldNotes id={id} hint={texts.unitTypes.hint} error={error} />
      {/* Said until the buttons work; a <noscript> here came out empty in the served page. */}
      {scripted ? null : <p className="hint">{texts.unitTypes.noScript}</p>}
      {rows.map((row, position) => (
        <fieldset key={row.key} className="unit-type">
          <legend>{format(texts.unitTypes.row, { n: position + 1 })}</legend>
          <div className="unit-type-fields">
            {(field.members ?? []).map((member) =>
              member.control === "level_range" ? (
                <FloorRange key={member.name} member={member} row={row} texts={texts} />
              ) : (
                <ListingField
                  key={member.name}
                  field={member}
                  name={rowControlName(row.key, member.name as RowControl)}
                  value={row.texts[member.name as RowControl]}
                  error={row.errors[member.name]}
                  texts={texts}
                />
              ),
            )}
          </div>
          {scripted ? (
            <button type="button" className="secondary" onClick={() => remove(position)}>
              {format(texts.unitTypes.remove, { n: position + 1 })}
            </button>
          ) : null}
        </fieldset>
      ))}
      {!scripted ? null : rows.length < maxRows ? (
        <button type="button" id={addButtonId} className="secondary" onClick={add}>
          {texts.unitTypes.add}
        </button>
      ) : (
        <p className="hint" id={addButtonId} tabIndex={-1}>
          {format(texts.unitTypes.full, { max: maxRows })}
        </p>
      )}
      <p className="hint" aria-live="polite">
        {announcement}
      </p>
    </fieldset>
  );
}

/** A row's floors: two selects of the floor levels, lowest first, with the row's `floors` error under both. */
function FloorRange({ member, row, texts }: { member: FormFieldView; row: Row; texts: Texts }) {
  const id = fieldId(rowControlName(row.key, "floors"));
  const error = row.errors[member.name];
  const aria = { "aria-invalid": error ? true : undefined, "aria-describedby": describedBy(id, undefined, error) } as const;
  const ends = [
    { id, name: rowControlName(row.key, "floors_from"), label: texts.unitTypes.floorsFrom, value: row.texts.floors_from },
    { id: `${id}_to`, name: rowControlName(row.key, "floors_to"), label: texts.unitTypes.floorsTo, value: row.texts.floors_to },
  ];
  return (
    <fieldset className="floor-range">
      <legend>{member.label}</legend>
      {ends.map((end) => (
        <div key={end.name} className="field">
          <label htmlFor={end.id}>{end.label}</label>
          <select id={end.id} name={end.name} defaultValue={end.value} {...aria}>
            <option value="">{texts.notSaid}</option>
            {member.options?.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      ))}
      <FieldNotes id={id} error={error} />
    </fieldset>
  );
}
