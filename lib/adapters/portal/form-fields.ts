import { z } from "zod";

/** A posted form as an object: each name's value, or its values when it was posted more than once. */
export type FormFields = Record<string, FormDataEntryValue | FormDataEntryValue[]>;

export function fieldsOf(form: FormData): FormFields {
  const fields: FormFields = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    fields[name] = values.length === 1 ? values[0] : values;
  }
  return fields;
}

/**
 * One text field, at most `max` characters of it kept (the first value when posted twice; absent or
 * a file reads as empty). It never refuses: the service's own schema checks the value, with the
 * API's codes, so a form and the API refuse alike.
 */
export const text = (max = 10_000) =>
  z.preprocess((value) => {
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === "string" ? first.slice(0, max) : "";
  }, z.string());

/** Every text posted under a name (ticked checkboxes), at most `maxItems` of them. */
export const texts = (maxItems = 1_000) =>
  z.preprocess(
    (value) =>
      (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((item) => typeof item === "string").slice(0, maxItems),
    z.array(z.string()),
  );
