import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { errorStatus, type ErrorCode } from "@/lib/platform/errors";
import { messages } from "@/lib/platform/i18n";

type Props = { params: Promise<{ code: string }> };

const isCode = (code: string): code is ErrorCode => Object.hasOwn(errorStatus, code);

export function generateStaticParams() {
  return Object.keys(errorStatus).map((code) => ({ code }));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { code } = await params;
  return { title: isCode(code) ? `${code} – problem` : "Problem" };
}

/** The page a problem's `type` points at: what the code means, in both languages, with each `reason` it can carry. */
export default async function ProblemPage({ params }: Props) {
  const { code } = await params;
  if (!isCode(code)) notFound();
  return (
    <>
      <h1>
        <code>{code}</code> <span className="muted">HTTP {errorStatus[code]}</span>
      </h1>
      {(["en", "ro"] as const).map((locale) => (
        <div className="card" key={locale} lang={locale}>
          <strong>{messages(locale).problems[code].title}</strong>
          <p>{messages(locale).problems[code].detail.replace(/\{\w+\}/g, "…")}</p>
          {Object.entries(messages(locale).problems[code].reasons ?? {}).map(([reason, text]) => (
            <p key={reason}>
              <code>reason: {reason}</code> – {text.replace(/\{\w+\}/g, "…")}
            </p>
          ))}
        </div>
      ))}
    </>
  );
}
