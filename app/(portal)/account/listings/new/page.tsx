import type { Metadata } from "next";
import Link from "next/link";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { firstValue, type SearchParams } from "@/lib/adapters/portal/search-params";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { formToken } from "@/lib/adapters/portal/csrf";
import { formSections, kindOf, unsaidValues } from "@/lib/adapters/portal/listing-form";
import { requireAccount } from "@/lib/adapters/portal/session";
import { listingFormToken } from "../_form/form-token";
import { KindChooser } from "../_form/kind-chooser";
import { ListingForm } from "../_form/listing-form";

type Props = { searchParams: Promise<SearchParams> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).listingForm.newTitle };
}

/** A new listing: its type and transaction first, then the form the vocabulary gives for them. */
export default async function NewListingPage({ searchParams }: Props) {
  const { account } = await requireAccount();
  const locale = await requestLocale();
  const t = pageMessages(locale).listingForm;
  const given = await searchParams;
  const [type, transaction] = [firstValue(given.type) ?? "", firstValue(given.transaction) ?? ""];
  const kind = kindOf(type, transaction);
  return (
    <>
      <p>
        <Link href="/account/listings">{t.backToList}</Link>
      </p>
      <h1>{t.newTitle}</h1>
      <p>{t.newIntro}</p>
      <KindChooser type={type} transaction={transaction} locale={locale} texts={t} />
      {(type || transaction) && !kind ? (
        <p className="notice error" role="alert">
          {t.kindInvalid}
        </p>
      ) : null}
      {kind ? (
        <section className="stack" aria-labelledby="listing-form-title">
          <h2 id="listing-form-title">{t.formTitle}</h2>
          <ListingForm
            sections={formSections(kind, locale)}
            initial={unsaidValues}
            hidden={{ code: "", token: formToken(account, listingFormToken, { code: "" }), ...kind }}
            intents={[
              { intent: "draft", label: t.saveDraft },
              { intent: "submit", label: t.submit },
            ]}
            hint={t.draftHint}
            texts={t}
          />
        </section>
      ) : null}
    </>
  );
}
