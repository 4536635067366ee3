import { FieldGroup, FormField } from "@/components/forms/form-field";
import { useFormat, type Formatter } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import type { FormFieldView } from "@/lib/adapters/portal/listing-form";

type Texts = PageMessages["listingForm"];

/** A control's id from its name; a unit type member's dots become dashes (`f-unit_types-2-label`), so the id works in a selector. */
export const fieldId = (name: string) => `f-${name.replaceAll(".", "-")}`;

/** The bounds of a field in words ("From 10 to 2000."), shown as its hint. */
function boundsHint(field: FormFieldView, texts: Texts, format: Formatter): string | undefined {
  const b = texts.bounds;
  if (field.control === "number") {
    const [min, max] = [field.min, field.max];
    if (min !== undefined && max !== undefined) return format(b.between, { min, max });
    if (min !== undefined) return format(b.atLeast, { min });
    if (max !== undefined) return format(b.atMost, { max });
    return undefined;
  }
  if (field.maxLength === undefined) return undefined;
  return field.minLength
    ? format(b.lengthBetween, { min: field.minLength, max: field.maxLength })
    : format(b.length, { max: field.maxLength });
}

/**
 * One field of the listing form: its label (with its unit, and whether submitting needs it), the
 * control the vocabulary gives it, its bounds as attributes and in words, and the API's error for it,
 * tied to the control by `aria-invalid` and `aria-describedby`. `name` is the control's name when it
 * is not the field's (a unit type row's member, `unit_types.2.rooms`).
 */
export function ListingField({
  field,
  name = field.name,
  value,
  error,
  texts,
}: {
  field: FormFieldView;
  name?: string;
  value: string;
  error?: string;
  texts: Texts;
}) {
  const format = useFormat();

  const id = fieldId(name);
  const hint = boundsHint(field, texts, format);
  const unit = field.unit === "price_currency" ? texts.priceCurrency : field.unit;
  const label = (
    <>
      {field.label}
      {unit ? ` (${unit})` : null}
      {field.required ? <span className="hint"> {texts.required}</span> : null}
    </>
  );

  if (field.control === "checkboxes") {
    const chosen = new Set(value.split(" "));
    return (
      <FieldGroup id={id} legend={label} hint={hint} error={error} className="choices wide">
        {field.options?.map((option) => (
          <label key={option.value} className="choice">
            <input type="checkbox" name={name} value={option.value} defaultChecked={chosen.has(option.value)} /> {option.label}
          </label>
        ))}
      </FieldGroup>
    );
  }
  return (
    <FormField id={id} label={label} hint={hint} error={error} className={field.control === "textarea" ? "wide" : undefined}>
      {(control) =>
        field.control === "select" || field.control === "yesno" ? (
          <select {...control} name={name} defaultValue={value}>
            <option value="">{texts.notSaid}</option>
            {(field.control === "yesno"
              ? [
                  { value: "yes", label: texts.yes },
                  { value: "no", label: texts.no },
                ]
              : (field.options ?? [])
            ).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        ) : field.control === "textarea" ? (
          <textarea {...control} name={name} defaultValue={value} rows={6} minLength={field.minLength} maxLength={field.maxLength} />
        ) : (
          <input
            {...control}
            name={name}
            type={field.control}
            defaultValue={value}
            min={field.min}
            max={field.max}
            step={field.step}
            minLength={field.minLength}
            maxLength={field.maxLength}
            inputMode={field.control === "number" ? (field.step === "1" ? "numeric" : "decimal") : undefined}
          />
        )
      }
    </FormField>
  );
}
