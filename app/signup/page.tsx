import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalStart } from "@/lib/adapters/portal/return-path";
import { signedInAccount } from "@/lib/adapters/portal/session";
import { SignupForm } from "./signup-form";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).access.signup.title };
}

export default async function SignupPage() {
  if (await signedInAccount()) redirect(portalStart);
  const texts = pageMessages(await requestLocale()).access;
  return (
    <section className="narrow">
      <h1>{texts.signup.title}</h1>
      <p>{texts.signup.intro}</p>
      <SignupForm texts={texts} />
      <p>
        {texts.signup.haveAccount} <Link href="/login">{texts.signup.signIn}</Link>
      </p>
    </section>
  );
}
