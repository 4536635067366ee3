import { FormField } from "@/components/forms/form-field";
import { useFormat } from "@/components/locale-provider";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import type { FormFieldView } from "@/lib/adapters/portal/listing-form";
import { cornersOfText, outlinePoints } from "@/lib/adapters/portal/parcel-text";
import { fieldId } from "./listing-field";

const previewSize = 160;

/**
 * The parcel outline: a textarea of corners, one `longitude, latitude` a line (or pasted GeoJSON),
 * the API's error for the outline or any corner under it, and a small drawing of the outline shown
 * when every line is a corner (what the validator then thinks of its shape is its error).
 */
export function ParcelField({
  field,
  value,
  error,
  texts,
}: {
  field: FormFieldView;
  value: string;
  error?: string;
  texts: PageMessages["listingForm"];
}) {
  const format = useFormat();

  const id = fieldId(field.name);
  const hint = format(texts.parcel.hint, { min: field.minItems ?? 0, max: field.maxItems ?? 0 });
  const corners = cornersOfText(value, field.maxItems ?? 0);
  return (
    <div className="wide">
      <FormField id={id} label={field.label} hint={hint} error={error}>
        {(control) => <textarea {...control} name={field.name} defaultValue={value} rows={6} spellCheck={false} autoComplete="off" />}
      </FormField>
      {corners ? (
        <figure className="parcel-preview">
          <svg
            viewBox={`0 0 ${previewSize} ${previewSize}`}
            width={previewSize}
            height={previewSize}
            role="img"
            aria-labelledby={`${id}-preview`}
          >
            <polygon points={outlinePoints(corners, previewSize)} />
          </svg>
          <figcaption id={`${id}-preview`}>{texts.parcel.preview}</figcaption>
        </figure>
      ) : null}
    </div>
  );
}
