import { redirect } from "next/navigation";

/** `/settings/api` is the API settings' first page. */
export default function ApiSettingsPage() {
  redirect("/settings/api/keys");
}
