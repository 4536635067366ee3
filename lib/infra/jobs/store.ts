import { and, asc, eq, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { Handle } from "@/db";
import { jobs } from "@/db/schema";
import { newId } from "@/lib/base/ids";
import { maxRunningJobsPerAccount } from "./define";

export type JobRow = typeof jobs.$inferSelect;

/**
 * How long a claim holds a row unless its job declares its own lease (`leaseSeconds`, renewed by
 * the run while it works). A row still `running` past its lease belongs to a process that died; any
 * runner claims it again.
 */
export const defaultJobLeaseSeconds = 600;

/** The lease of each job name whose lease is not the default one. */
export type JobLeases = Readonly<Record<string, number>>;

const pending = inArray(jobs.status, ["queued", "running"]);

/** Queued and due, or running with an expired lease. */
const claimable = (now: Date): SQL =>
  or(
    and(eq(jobs.status, "queued"), lte(jobs.runAt, now)),
    and(eq(jobs.status, "running"), or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now))),
  )!;

const leaseEnd = (now: Date, seconds = defaultJobLeaseSeconds) => new Date(now.getTime() + seconds * 1000);

/** The end of a claim made at `now`: each row's by its job's lease. */
function claimLeaseEnd(now: Date, leases: JobLeases = {}): SQL | Date {
  const named = Object.entries(leases);
  if (named.length === 0) return leaseEnd(now);
  const cases = named.map(([name, seconds]) => sql`when ${name} then ${leaseEnd(now, seconds).toISOString()}::timestamptz`);
  return sql`case ${jobs.name} ${sql.join(cases, sql` `)} else ${leaseEnd(now).toISOString()}::timestamptz end`;
}

export interface NewJob {
  name: string;
  payload: unknown;
  runAt: Date;
  dedupeKey?: string;
  accountId?: string;
}

/**
 * Inserts a job row; with a dedupe key already pending (queued or running) it inserts nothing and
 * returns the pending row's id and time instead.
 */
export async function insertJob(db: Handle, job: NewJob): Promise<{ id: string; runAt: Date; accountId: string | null; created: boolean }> {
  // Twice at most: the pending duplicate may finish between the refused insert and the look-up.
  for (let round = 0; round < 2; round++) {
    const [inserted] = await db
      .insert(jobs)
      .values({
        id: newId("job"),
        name: job.name,
        payload: job.payload,
        runAt: job.runAt,
        dedupeKey: job.dedupeKey,
        accountId: job.accountId,
      })
      .onConflictDoNothing()
      .returning({ id: jobs.id, runAt: jobs.runAt, accountId: jobs.accountId });
    if (inserted) return { ...inserted, created: true };
    if (!job.dedupeKey) break;
    const [existing] = await db
      .select({ id: jobs.id, runAt: jobs.runAt, accountId: jobs.accountId })
      .from(jobs)
      .where(and(eq(jobs.dedupeKey, job.dedupeKey), pending));
    if (existing) return { ...existing, created: false };
  }
  throw new Error(`Could not enqueue job "${job.name}"`);
}

/** Inserts each row unless its dedupe key is already pending. */
export async function insertJobsIfAbsent(db: Handle, rows: Required<Omit<NewJob, "accountId">>[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(jobs)
    .values(rows.map((row) => ({ id: newId("job"), ...row })))
    .onConflictDoNothing();
}

/**
 * Claims up to `limit` due rows of the given job names, oldest first, taking no more rows of an
 * account than keep it within `maxRunningJobsPerAccount` running rows (its rows under a live lease,
 * whichever runner holds them); rows without an account are not capped. `FOR UPDATE SKIP LOCKED`
 * lets concurrent runners (several instances on PostgreSQL) each take different rows without
 * waiting on each other, so a row is never claimed twice; two runners claiming for one account at
 * the same moment may each count the other's claims as not yet running, so across N runners an
 * account holds at most N × the cap. Names this process does not know stay untouched, so an older
 * instance in a rolling deploy never fails a newer instance's jobs.
 */
export async function claimDueJobs(
  db: Handle,
  input: { names: string[]; now: Date; limit: number; leases?: JobLeases },
): Promise<JobRow[]> {
  if (input.names.length === 0) return [];
  const now = sql`${input.now.toISOString()}::timestamptz`;
  const runningOfAccount = sql`(select count(*) from ${jobs} as held
    where held.account_id = ${jobs}.account_id and held.status = 'running' and held.locked_until > ${now})`;
  // Accounts at their cap are left out before the limit, so their backlog cannot fill the rows
  // locked here. An account below it may still fill them, of which only its share is taken (the
  // rest unlocked at the statement's end); the runner then claims again, for the other accounts.
  // No more rows than the limit are locked: a claim inside a longer transaction holds no others.
  const candidates = sql`select ${jobs}.id, ${jobs}.run_at, ${jobs}.account_id, ${runningOfAccount} as running
    from ${jobs}
    where ${and(inArray(jobs.name, input.names), claimable(input.now))}
      and (${jobs}.account_id is null or ${runningOfAccount} < ${maxRunningJobsPerAccount})
    order by ${jobs}.run_at
    limit ${input.limit}
    for update of ${jobs} skip locked`;
  const due = sql`select id from (
      select id, run_at, account_id, running, row_number() over (partition by account_id order by run_at, id) as nth
      from (${candidates}) as candidate
    ) as ranked
    where account_id is null or running + nth <= ${maxRunningJobsPerAccount}
    order by run_at
    limit ${input.limit}`;
  const claimed = await db
    .update(jobs)
    .set({ status: "running", attempts: sql`${jobs.attempts} + 1`, lockedUntil: claimLeaseEnd(input.now, input.leases) })
    .where(sql`${jobs.id} in (${due})`)
    .returning();
  return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime());
}

/** Rows a runner could claim now: the job backlog the metrics report. */
export async function countDueJobs(db: Handle, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(jobs)
    .where(claimable(now));
  return row.count;
}

export type ClaimById = { claimed: JobRow } | { waitUntil: Date } | { gone: true };

/** Claims one row by id (the Inngest path), or says when it may be claimed, or that it never will. */
export async function claimJobById(db: Handle, input: { id: string; now: Date; leases?: JobLeases }): Promise<ClaimById> {
  const [claimed] = await db
    .update(jobs)
    .set({ status: "running", attempts: sql`${jobs.attempts} + 1`, lockedUntil: claimLeaseEnd(input.now, input.leases) })
    .where(and(eq(jobs.id, input.id), claimable(input.now)))
    .returning();
  if (claimed) return { claimed };
  const [row] = await db.select().from(jobs).where(eq(jobs.id, input.id));
  if (!row || row.status === "done" || row.status === "failed") return { gone: true };
  return { waitUntil: row.status === "queued" ? row.runAt : (row.lockedUntil ?? input.now) };
}

// Every transition after a claim names the attempt it belongs to: a runner whose lease expired
// and whose row was claimed again must not overwrite the newer attempt's outcome.
const heldBy = (row: JobRow) => and(eq(jobs.id, row.id), eq(jobs.status, "running"), eq(jobs.attempts, row.attempts));

/**
 * The run still works: its lease runs `seconds` from `now` again. False when the row is no longer
 * this attempt's (its lease ended and another run claimed it): the run must stop. Whichever of the
 * renewal and another runner's claim comes first wins, as both update the same row.
 */
export async function renewJobLease(db: Handle, row: JobRow, input: { now: Date; seconds: number }): Promise<boolean> {
  const renewed = await db
    .update(jobs)
    .set({ lockedUntil: leaseEnd(input.now, input.seconds) })
    .where(heldBy(row))
    .returning({ id: jobs.id });
  return renewed.length > 0;
}

export async function markDone(db: Handle, row: JobRow, now: Date): Promise<void> {
  await db.update(jobs).set({ status: "done", finishedAt: now, lockedUntil: null, lastError: null }).where(heldBy(row));
}

export async function markRetry(db: Handle, row: JobRow, input: { runAt: Date; error: string }): Promise<void> {
  await db.update(jobs).set({ status: "queued", runAt: input.runAt, lockedUntil: null, lastError: input.error }).where(heldBy(row));
}

/** A claim given back unfinished (the process stops): due again at once, the attempt counted as a lost one. */
export async function releaseJob(db: Handle, row: JobRow, now: Date): Promise<void> {
  await db.update(jobs).set({ status: "queued", runAt: now, lockedUntil: null }).where(heldBy(row));
}

export async function markFailed(db: Handle, row: JobRow, input: { now: Date; error: string }): Promise<void> {
  await db.update(jobs).set({ status: "failed", finishedAt: input.now, lockedUntil: null, lastError: input.error }).where(heldBy(row));
}

/**
 * Rows the Inngest path should have run by now but has not: queued and overdue by more than
 * `graceSeconds` (their event was lost between commit and send), or running with an expired lease.
 */
export async function findOverdueJobs(
  db: Handle,
  input: { names: string[]; now: Date; graceSeconds: number; limit: number },
): Promise<Pick<JobRow, "id" | "name" | "accountId">[]> {
  if (input.names.length === 0) return [];
  const overdueBefore = new Date(input.now.getTime() - input.graceSeconds * 1000);
  return db
    .select({ id: jobs.id, name: jobs.name, accountId: jobs.accountId })
    .from(jobs)
    .where(and(inArray(jobs.name, input.names), claimable(overdueBefore)))
    .orderBy(asc(jobs.runAt))
    .limit(input.limit);
}
