import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { errorStatus, type ErrorCode } from "@/lib/base/errors";
import { format, locales, messages } from "@/lib/base/i18n";
import { problemDetails, problemReasons } from "@/lib/base/i18n/keys";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { requestLocale } from "@/lib/adapters/portal/request-locale";

type Props = { params: Promise<{ code: string }> };

const isCode = (code: string): code is ErrorCode => Object.hasOwn(errorStatus, code);

/** A message's arguments shown as "…": the page explains the code, not one occurrence of it. */
const elided = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, "…"]));
const reasonArguments = (code: ErrorCode, reason: string): readonly string[] =>
  (problemReasons as Partial<Record<ErrorCode, Record<string, readonly string[]>>>)[code]?.[reason] ?? [];

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { code } = await params;
  const locale = await requestLocale();
  const { problem } = pageMessages(locale);
  return { title: isCode(code) ? format(locale, problem.title, { code }) : problem.fallbackTitle };
}

/** The page a problem's `type` points at: what the code means, in both languages, with each `reason` it can carry. */
export default async function ProblemPage({ params }: Props) {
  const { code } = await params;
  if (!isCode(code)) notFound();
  const locale = await requestLocale();
  const { problem } = pageMessages(locale);
  // The page's language first, then the other one.
  const order = [locale, ...locales.filter((other) => other !== locale)];
  return (
    <>
      <h1>
        <code>{code}</code> <span className="muted">HTTP {errorStatus[code]}</span>
      </h1>
      <p>{problem.intro}</p>
      {order.map((language) => (
        <div className="card" key={language} lang={language}>
          <strong>{messages(language).problems[code].title}</strong>
          <p>{format(language, messages(language).problems[code].detail, elided(problemDetails[code]))}</p>
          {Object.entries(messages(language).problems[code].reasons ?? {}).map(([reason, text]) => (
            <p key={reason}>
              <code>{format(language, pageMessages(language).problem.reason, { reason })}</code> –{" "}
              {format(language, text, elided(reasonArguments(code, reason)))}
            </p>
          ))}
        </div>
      ))}
    </>
  );
}
