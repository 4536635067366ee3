import Link from "next/link";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { pageMessages } from "@/lib/base/i18n/page-messages";

/** Every page's 404 (an unknown address, a listing that is not public), in the page's language. */
export default async function NotFound() {
  const { notFound } = pageMessages(await requestLocale());
  return (
    <>
      <h1>{notFound.title}</h1>
      <p>{notFound.text}</p>
      <p>
        <Link href="/">{notFound.home}</Link>
      </p>
    </>
  );
}
