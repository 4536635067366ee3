import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { database } from "@/db";
import { listingImports } from "@/db/schema";
import { locales } from "@/lib/base/i18n";
import { accountWithKey } from "../support/fixtures";
import { inProcessFetch } from "../support/in-process-fetch";
import { activeListing, validApartment } from "../support/listings";
import { ndjson, postImport, runImportToEnd } from "../imports/support";
import { runShell, runTypeScript, startBridge, testedSamples, workFolder } from "./samples";
import { api, lines, shownAfter } from "./shown";

// The feeds guide's samples run against the route handlers as an integrator runs them: the full
// import withdraws the one listing its file lacks and reads as shown; a file over the default cap
// is refused as shown, writing nothing; the stored source time and the stale write print as shown;
// and the client program's full import withdraws what its list lacks.

type SyncInventory = {
  syncInventory: (listings: object[], maxWithdrawals?: number) => Promise<string>;
  withdrawnBy: (id: string) => Promise<string[]>;
};

let bridge: Awaited<ReturnType<typeof startBridge>>;
beforeAll(async () => {
  bridge = await startBridge();
});
afterAll(async () => {
  await bridge.close();
});

/** The account's active listings `refs`, as moderation approves them. */
async function inventory(key: string, refs: string[]): Promise<void> {
  for (const ref of refs) await activeListing(key, validApartment({ external_ref: ref }));
}

async function latestImport(accountId: string): Promise<string> {
  const db = (await database()).connection;
  const [row] = await db
    .select({ id: listingImports.id })
    .from(listingImports)
    .where(eq(listingImports.accountId, accountId))
    .orderBy(desc(listingImports.createdAt))
    .limit(1);
  return row.id;
}

describe.each(locales)("the feeds guide's samples (%s)", (locale) => {
  const sample = (title: string) => {
    const found = testedSamples(locale, "feeds").get(title);
    if (!found) throw new Error(`no sample ${title} in the ${locale} feeds guide`);
    return found;
  };
  const shell = (title: string, env: Record<string, string>) =>
    runShell(sample(title), { curlHome: bridge.curlHome, cwd: workFolder(), env });
  const shown = (title: string) => shownAfter(locale, "feeds", title);

  it("has the samples this test runs, and no other", () => {
    expect([...testedSamples(locale, "feeds").keys()].sort()).toEqual(
      ["full-import.sh", "refused-import.sh", "source-time.sh", "stale-write.sh", "sync-inventory.ts", "sync-results.sh"].sort(),
    );
  });

  it("full-import.sh queues a full import; sync-results.sh shows the one listing it withdrew; the times print as shown", async () => {
    const { key, account } = await accountWithKey();
    await inventory(key, ["crm-30001", "crm-30002", "crm-30003"]);
    expect(lines(await shell("full-import.sh", { LISTINGS_API_KEY: key }))).toEqual(lines(shown("full-import.sh")));
    const id = await latestImport(account.id);
    await runImportToEnd(id);
    expect(JSON.parse(await shell("sync-results.sh", { LISTINGS_API_KEY: key, IMPORT_ID: id }))).toEqual(
      JSON.parse(shown("sync-results.sh")),
    );
    expect((await api(key, "GET", "/account/listings/ref/crm-30003")).json.data.status).toBe("paused");
    expect((await api(key, "GET", "/account/listings/ref/crm-30001")).json.data.status).toBe("active");

    expect(lines(await shell("source-time.sh", { LISTINGS_API_KEY: key }))).toEqual(lines(shown("source-time.sh")));
    const before = (await api(key, "GET", "/account/listings/ref/crm-30001")).json.data;
    expect(JSON.parse(await shell("stale-write.sh", { LISTINGS_API_KEY: key }))).toEqual(JSON.parse(shown("stale-write.sh")));
    const after = (await api(key, "GET", "/account/listings/ref/crm-30001")).json.data;
    expect(after).toMatchObject({ etag: before.etag, source_updated_at: "2026-03-02T08:00:00.000Z" });
  });

  it("refused-import.sh shows a full import over the default cap refused, nothing written", async () => {
    const { key } = await accountWithKey();
    await inventory(key, ["crm-40001", "crm-40002", "crm-40003", "crm-40004"]);
    const posted = await postImport(key, ndjson([{ external_ref: "crm-40001", price: 1_000 }]), {}, "?mode=full");
    const id = posted.json!.data.id as string;
    await runImportToEnd(id);
    expect(JSON.parse(await shell("refused-import.sh", { LISTINGS_API_KEY: key, IMPORT_ID: id }))).toEqual(
      JSON.parse(shown("refused-import.sh")),
    );
    for (const ref of ["crm-40001", "crm-40002", "crm-40003", "crm-40004"]) {
      expect((await api(key, "GET", `/account/listings/ref/${ref}`)).json.data).toMatchObject({
        status: "active",
        price: validApartment().price,
        moderation: { edit_pending: false },
      });
    }
  });

  it("sync-inventory.ts sends a full import with the client and reads back what it withdrew", async () => {
    const { key } = await accountWithKey();
    await inventory(key, ["crm-50001", "crm-50002", "crm-50003"]);
    const { module } = await runTypeScript<SyncInventory>(sample("sync-inventory.ts"), {
      folder: workFolder(),
      env: { LISTINGS_API_KEY: key },
    });
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => inProcessFetch(new Request(input, init)));
    try {
      const bodies = ["crm-50001", "crm-50002"].map((ref) => validApartment({ external_ref: ref }));
      // Over the cap given (0), nothing is withdrawn; within the default cap (1 of 3), the absent one is.
      const refused = await module.syncInventory(bodies, 0);
      await runImportToEnd(refused);
      expect(await module.withdrawnBy(refused)).toEqual([]);
      expect((await api(key, "GET", `/listings/imports/${refused}`)).json.data.status).toBe("refused");
      const id = await module.syncInventory(bodies);
      await runImportToEnd(id);
      expect(await module.withdrawnBy(id)).toEqual(["crm-50003"]);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
