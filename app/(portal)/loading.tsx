import { requestLocale } from "@/app/locale";
import { pageMessages } from "@/lib/platform/i18n/page-messages";

/** Shown at once while a signed-in page loads its data. */
export default async function PortalLoading() {
  const { shell } = pageMessages(await requestLocale());
  return (
    <p className="muted" role="status" aria-live="polite">
      {shell.loading}
    </p>
  );
}
