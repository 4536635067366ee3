import { propertyTypes, transactionTypes } from "@/lib/domain/vocabulary";
import type { Locale } from "@/lib/base/i18n";
import type { PageMessages } from "@/lib/base/i18n/page-messages";
import { optionsOf } from "@/lib/adapters/portal/listing-form";

/**
 * The first step of a new listing: its type and transaction, chosen in a GET form (the choice is in
 * the address, so it works without JavaScript), which decide the fields of the form under it.
 */
export function KindChooser({
  type,
  transaction,
  locale,
  texts,
}: {
  type: string;
  transaction: string;
  locale: Locale;
  texts: PageMessages["listingForm"];
}) {
  const choices = [
    { name: "type", label: texts.type, options: optionsOf(propertyTypes, locale), value: type },
    { name: "transaction", label: texts.transaction, options: optionsOf(transactionTypes, locale), value: transaction },
  ];
  return (
    <form method="get" action="/account/listings/new" className="catalog-filters" aria-labelledby="kind-title">
      <h2 id="kind-title">{texts.kind}</h2>
      {choices.map((choice) => (
        <div className="field" key={choice.name}>
          <label htmlFor={`kind-${choice.name}`}>{choice.label}</label>
          <select id={`kind-${choice.name}`} name={choice.name} defaultValue={choice.value} aria-describedby="kind-hint">
            <option value="">{texts.choose}</option>
            {choice.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      ))}
      <p className="hint" id="kind-hint">
        {texts.kindHint}
      </p>
      <div className="catalog-actions">
        <button type="submit">{texts.showForm}</button>
      </div>
    </form>
  );
}
