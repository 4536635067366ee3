import type { Metadata } from "next";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { listConnections } from "@/lib/domain/oauth/list-connections";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requireAccount } from "@/lib/adapters/portal/session";
import { DataTable } from "@/components/data-table";
import { DisconnectButton } from "./disconnect-button";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).apps.connections.title };
}

/** The apps this account connected through consent, each with its scope and key; Disconnect revokes the key. */
export default async function ConnectionsPage() {
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const { apps: texts } = pageMessages(locale);
  const connections = await listConnections({ ctx });
  const now = ctx.now.getTime();
  return (
    <>
      <h1>{texts.connections.title}</h1>
      <p>{texts.connections.intro}</p>
      <DataTable rows={connections.length} empty={texts.connections.empty} label={texts.connections.title} variant="words">
        <thead>
          <tr>
            <th scope="col">{texts.connections.app}</th>
            <th scope="col">{texts.connections.scope}</th>
            <th scope="col">{texts.connections.connected}</th>
            <th scope="col">{texts.connections.keyExpires}</th>
            <th scope="col">{texts.connections.actions}</th>
          </tr>
        </thead>
        <tbody>
          {connections.map((connection) => (
            <tr key={connection.connection_id}>
              <th scope="row">{connection.app_name}</th>
              <td>
                {connection.scope.map((permission) => (
                  <span key={permission} className="badge">
                    {permission}
                  </span>
                ))}
              </td>
              <td>{portalDateTime(locale, "day").format(connection.connected_at)}</td>
              <td>
                {connection.key_expires_at && connection.key_expires_at.getTime() > now
                  ? portalDateTime(locale, "day").format(connection.key_expires_at)
                  : texts.connections.noKey}
              </td>
              <td>
                <DisconnectButton connectionId={connection.connection_id} app={connection.app_name} texts={texts} />
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </>
  );
}
