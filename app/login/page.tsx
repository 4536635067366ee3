import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { safeReturnPath } from "@/lib/adapters/portal/return-path";
import { signedInAccount } from "@/lib/adapters/portal/session";
import { LoginForm } from "./login-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).access.login.title, robots: { index: false } };
}

const notices = ["confirmed", "password_reset", "signed_out"] as const;

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const next = safeReturnPath(query.next);
  if (await signedInAccount()) redirect(next);
  const texts = pageMessages(await requestLocale()).access;
  const notice = notices.find((n) => n === query.notice);
  const noticeText =
    notice && { confirmed: texts.login.confirmed, password_reset: texts.login.passwordReset, signed_out: texts.login.signedOut }[notice];
  return (
    <section className="narrow">
      <h1>{texts.login.title}</h1>
      {noticeText ? (
        <p className="notice success" role="status">
          {noticeText}
        </p>
      ) : query.next ? (
        <p className="notice">{texts.login.sessionEnded}</p>
      ) : null}
      <LoginForm texts={texts} next={next} />
      <p>
        <Link href="/reset-password">{texts.login.forgot}</Link>
      </p>
      <p>
        {texts.login.noAccount} <Link href="/signup">{texts.login.signUp}</Link>
      </p>
    </section>
  );
}
