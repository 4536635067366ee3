import { sql } from "drizzle-orm";
import { afterAll, expect } from "vitest";
import { closeDatabase, configureDatabase, database, databaseOpened } from "@/db";
import { databaseSettings } from "@/lib/platform/config";
import { flushApiLog } from "@/lib/platform/http/api-log";
import { createdKeys } from "../support/fixtures";

// The application's settings; embedded, loaded from the migrated template global.ts wrote (a
// test-only variable, read here rather than by the application).
configureDatabase(() => ({ ...databaseSettings(), template: process.env.PGLITE_TEMPLATE }));

/**
 * After every test file, the API log is audited as an attacker with a copy of it would read it:
 * no column of any row may hold the secret of a key the file created, nor anything in our key
 * format (whatever the tests sent, in bodies, queries or headers). On PostgreSQL the whole run
 * shares one database: each file audits the rows written since it started (a minute of margin for
 * clocks the tests hold still), since the rows of the files before it were audited by them and
 * scanning every earlier row for every secret grows with the square of the suite.
 */
const fileStarted = new Date(Date.now() - 60_000);

afterAll(async () => {
  if (!databaseOpened()) return;
  await flushApiLog();
  const db = await database();
  // The random part of each secret, so that a secret stored without its `svc_test_` prefix is found too.
  const secrets = createdKeys.map((key) => key.slice(key.indexOf("|") + 1).replace(/^svc_(test|live)_/, ""));
  // Each row's text is made once (a file like common-route.test.ts writes thousands of rows and many keys).
  const leaks = await db.rows<{ request_id: string }>(sql`
    select row.request_id from api_log as row, lateral (select row::text as text) as whole
    where row.created_at >= ${fileStarted.toISOString()}::timestamptz
      and (whole.text ~ 'svc_(test|live)_[A-Za-z0-9]'
       or exists (select 1 from jsonb_array_elements_text(${JSON.stringify(secrets)}::jsonb) as secret where strpos(whole.text, secret) > 0))
    limit 5`);
  expect(leaks, "API log rows holding a key secret").toEqual([]);
  await closeDatabase();
  // On PostgreSQL the window holds the rows of every file running meanwhile too: on a slow machine the
  // audit of the file with the most requests took more than the default minute.
}, 180_000);
