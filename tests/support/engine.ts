import { describe } from "vitest";

/**
 * Which run this is: `npm run test:pg` gives the suite its PostgreSQL database (`DATABASE_URL`, Node 24,
 * the Upstash limiter on real Redis), `npm test` the embedded PGlite on Node 20.
 */
export const onPostgresRun = Boolean(process.env.DATABASE_URL);

/**
 * A `describe` whose subject is the same on either engine (no query of its own tells them apart): CI
 * runs it once, under `npm run test:pg`, and `npm test` lists it as skipped with the reason in its name.
 */
export function describeOnceUnderTestPg(name: string, body: () => void): void {
  describe.skipIf(!onPostgresRun)(`${name}${onPostgresRun ? "" : " (skipped: the same on either engine; npm run test:pg runs it)"}`, body);
}
