import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requestLocale } from "@/lib/adapters/portal/request-locale";
import { listAgencyMembers } from "@/lib/domain/accounts/list-agency-members";
import { AppError } from "@/lib/base/errors";
import { format } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { portalDateTime } from "@/lib/adapters/portal/dates";
import { DataTable } from "@/components/data-table";
import { requireAccount } from "@/lib/adapters/portal/session";

export async function generateMetadata(): Promise<Metadata> {
  return { title: pageMessages(await requestLocale()).members.title };
}

/** The agency's members, for its owners and admins; anyone else gets the site's not-found page, as if there were no such page. */
export default async function MembersPage() {
  const { account, ctx } = await requireAccount();
  if (!account.agency || account.agency.role === "agent") notFound();
  const members = await listAgencyMembers({ ctx }).catch((error: unknown) => {
    // The membership changed since the session was read (the service checks it again).
    if (error instanceof AppError && error.code === "forbidden") notFound();
    throw error;
  });
  const locale = await requestLocale();
  const { members: t, shell } = pageMessages(locale);
  const date = portalDateTime(locale);
  return (
    <>
      <h1>{t.title}</h1>
      <p>{format(locale, t.intro, { agency: members.agency.name })}</p>
      <DataTable rows={members.members.length} empty={t.empty} label={t.title} variant="words">
        <thead>
          <tr>
            <th scope="col">{t.name}</th>
            <th scope="col">{t.email}</th>
            <th scope="col">{t.role}</th>
            <th scope="col">{t.status}</th>
            <th scope="col">{t.joined}</th>
          </tr>
        </thead>
        <tbody>
          {members.members.map((member) => (
            <tr key={member.accountId}>
              <th scope="row" className="text">
                {member.name} {member.accountId === account.id ? <span className="muted">{t.you}</span> : null}
              </th>
              <td>{member.email}</td>
              <td className="nowrap">{shell.roles[member.role]}</td>
              <td>
                <span className={member.confirmed ? "badge ok" : "badge"}>{member.confirmed ? t.confirmed : t.unconfirmed}</span>
              </td>
              <td className="date">{date.format(member.joinedAt)}</td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </>
  );
}
