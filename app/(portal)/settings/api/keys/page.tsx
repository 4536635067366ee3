import type { Metadata } from "next";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { permissions, validityDays } from "@/lib/domain/keys/format";
import { listOwnKeys, type KeyStatus } from "@/lib/domain/keys/list-keys";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { requireAccount } from "@/lib/adapters/portal/session";
import { DataTable } from "@/components/data-table";
import { KeyCreation } from "./key-creation";
import { RevokeButton } from "./revoke-button";
import { RevokedNotice } from "./revoked-notice";
import "./keys.css";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).apiKeys.title };
}

const badge: Record<KeyStatus, string> = { active: "badge ok", expired: "badge", revoked: "badge bad" };

export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<{ revoked?: string | string[] }> }) {
  const { revoked } = await searchParams;
  const { ctx } = await requireAccount();
  const locale = await requestLocale();
  const { apiKeys: t, secret } = pageMessages(locale);
  const { keys, usable, limit } = await listOwnKeys({ ctx });
  const date = portalDateTime(locale);
  const revokedKey = keys.find((key) => key.id === revoked && key.status === "revoked");
  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      {revokedKey ? <RevokedNotice>{format(locale, t.revoke.done, { name: revokedKey.name })}</RevokedNotice> : null}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">{t.list.heading}</h2>
        <p>{format(locale, t.usage, { used: usable, limit })}</p>
        <DataTable rows={keys.length} empty={t.list.empty} labelledBy="keys-heading" variant="words">
          <thead>
            <tr>
              <th scope="col">{t.list.name}</th>
              <th scope="col">{t.list.prefix}</th>
              <th scope="col">{t.list.permissions}</th>
              <th scope="col">{t.list.created}</th>
              <th scope="col">{t.list.expires}</th>
              <th scope="col">{t.list.lastUsed}</th>
              <th scope="col">{t.list.origin}</th>
              <th scope="col">{t.list.status}</th>
              <th scope="col">{t.list.actions}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <th scope="row" className="text">
                  {key.name}
                </th>
                <td>
                  <code className="key-prefix">{key.displayPrefix}</code>
                </td>
                <td className="nowrap">
                  <ul className="key-permissions">
                    {key.permissions.map((permission) => (
                      <li key={permission}>
                        <code>{permission}</code>
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="date">{date.format(key.createdAt)}</td>
                <td className="date">{date.format(key.expiresAt)}</td>
                <td className="date">{key.lastUsedAt ? date.format(key.lastUsedAt) : t.list.never}</td>
                <td>{key.origin.kind === "app" ? format(locale, t.list.originApp, { app: key.origin.appName }) : t.list.originAccount}</td>
                <td className="nowrap">
                  <span className={badge[key.status]}>{t.list.statuses[key.status]}</span>
                </td>
                <td className="row-actions">
                  {key.status === "active" ? <RevokeButton id={key.id} name={key.name} texts={t.revoke} /> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      </section>
      <KeyCreation
        texts={t}
        secret={secret}
        activeKeyIds={keys.filter((key) => key.status === "active").map((key) => key.id)}
        atLimit={usable >= limit}
        limit={limit}
        permissions={permissions}
        validity={validityDays}
      />
    </>
  );
}
