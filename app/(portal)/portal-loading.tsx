import { requestLocale } from "@/app/locale";
import { pageMessages } from "@/lib/platform/i18n/page-messages";

/**
 * Shown at once while a signed-in page loads its data: the `loading.tsx` of each page that cannot
 * end in not-found. A page that can (another account's log entry, the members page for an agent)
 * has none: once a loading state has streamed, the answer's status is already 200, and a not-found
 * must answer 404.
 */
export default async function PortalLoading() {
  const { shell } = pageMessages(await requestLocale());
  return (
    <p className="muted" role="status" aria-live="polite">
      {shell.loading}
    </p>
  );
}
