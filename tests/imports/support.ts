import { eq } from "drizzle-orm";
import { setTimeout as sleep } from "node:timers/promises";
import { database } from "@/db";
import { listingImports, pendingImportStatuses } from "@/db/schema";
import { POST } from "@/app/api/v1/listings/imports/route";
import { DELETE, GET } from "@/app/api/v1/listings/imports/[id]/route";
import { processImportJob } from "@/lib/adapters/jobs/import-jobs";
import { runDueJobs } from "@/lib/adapters/jobs/run";
import { call } from "../support/fixtures";

export const ndjson = (lines: unknown[]): string =>
  lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n";

/** `POST /listings/imports` of NDJSON text; `query` (`?mode=full&…`) as sent after the path. */
export const postImport = (key: string | undefined, body: string, headers: Record<string, string> = {}, query = "") =>
  call(POST, {
    path: `/listings/imports${query}`,
    method: "POST",
    key,
    rawBody: body,
    headers: { "content-type": "application/x-ndjson", ...headers },
  });

export const getImport = (key: string | undefined, id: string, query = "") =>
  call(GET, { path: `/listings/imports/${id}${query}`, key, params: { id } });

export const cancelImport = (key: string | undefined, id: string) =>
  call(DELETE, { path: `/listings/imports/${id}`, method: "DELETE", key, params: { id } });

/** Runs the due import jobs until none is left (a run that hands over enqueues the next). */
export async function runImports(): Promise<void> {
  for (;;) {
    const summary = await runDueJobs({ database: await database(), jobs: [processImportJob] });
    if (summary.ran === 0) return;
  }
}

/**
 * Runs due import jobs until the import `id` has ended. Under `npm run test:pg` the files share one
 * database, and another file's `runImports` may be the pass running this import: `runImports` would
 * then find nothing due and return before it ends; this waits for it.
 */
export async function runImportToEnd(id: string): Promise<void> {
  const opened = await database();
  for (;;) {
    await runDueJobs({ database: opened, jobs: [processImportJob] });
    const [row] = await opened.connection.select({ status: listingImports.status }).from(listingImports).where(eq(listingImports.id, id));
    if (!pendingImportStatuses.includes(row.status)) return;
    await sleep(50);
  }
}
