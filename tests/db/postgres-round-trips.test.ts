import net from "node:net";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";

/**
 * patches/postgres+3.4.9.patch (docs/operations.md, PostgreSQL): postgres.js sends a statement that
 * is not prepared by name in one flight (parse, bind, run) when its values need no type from the
 * server, instead of asking the server for the parameters' types first and binding in a second
 * round trip. Counted here as the socket writes each statement makes on a connection of its own.
 */

const url = process.env.DATABASE_URL;
const onPostgres = Boolean(url);
const skipped = onPostgres ? "" : " (skipped: PGlite has no wire protocol; npm run test:pg runs it)";

function countingClient() {
  let writes = 0;
  const { hostname, port } = new URL(url ?? "postgres://127.0.0.1:5432");
  // `socket` (a connected socket of one's own) is an option postgres.js reads but does not declare.
  const options: postgres.Options<Record<string, never>> & { socket: () => Promise<net.Socket> } = {
    max: 1,
    prepare: true,
    onnotice: () => {},
    socket: () =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect({ host: hostname, port: Number(port || 5432) }, () => resolve(socket));
        socket.once("error", reject);
        const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
        socket.write = ((...args: unknown[]) => {
          writes += 1;
          return write(...args);
        }) as typeof socket.write;
      }),
  };
  const client = postgres(url ?? "", options);
  /** Runs `query` once the connection is open and says how many writes it made. */
  const flightsOf = async <T>(query: () => Promise<T>): Promise<{ result: T; flights: number }> => {
    const before = writes;
    const result = await query();
    return { result, flights: writes - before };
  };
  return { client, db: drizzle({ client }), flightsOf };
}

describe.skipIf(!onPostgres)(`postgres.js round trips${skipped}`, () => {
  const { client, db, flightsOf } = countingClient();
  afterAll(() => client.end({ timeout: 5 }));

  it("runs drizzle's unnamed statement with text, numbers, null, booleans and JSON in one flight, each value typed by the server", async () => {
    await client`select 1`;
    const { result, flights } = await flightsOf(() =>
      db.execute<{ text: string; sum: number; none: string | null; yes: boolean; json: { a: number[] } }>(
        sql`select ${"țară"}::text as text, ${40}::int + ${2}::int as sum, ${null}::text as none, ${true} as yes, ${JSON.stringify({ a: [1, 2] })}::jsonb as json`,
      ),
    );
    expect(flights).toBe(1);
    expect([...result]).toEqual([{ text: "țară", sum: 42, none: null, yes: true, json: { a: [1, 2] } }]);
  });

  it("binds a moment given as text to timestamptz and compares it as the server parses it", async () => {
    const { result, flights } = await flightsOf(() =>
      db.execute<{ later: boolean }>(
        sql`select ${"2026-11-27T10:00:00.000Z"}::timestamptz > ${"2026-11-27T09:59:59.999Z"}::timestamptz as later`,
      ),
    );
    expect(flights).toBe(1);
    expect([...result]).toEqual([{ later: true }]);
  });

  it("still asks for the types first when a value's encoding depends on them (an array bound as text[])", async () => {
    const { result, flights } = await flightsOf(() =>
      client.unsafe("select $1::text[] as list", [["a", "b,c"]] as never, { prepare: false }),
    );
    expect(flights).toBe(2);
    expect([...result]).toEqual([{ list: ["a", "b,c"] }]);
  });

  it("prepares a named statement once (describe, then bind) and runs it in one flight after", async () => {
    const first = await flightsOf(() => client.unsafe("select $1::int * 2 as twice", [21], { prepare: true }));
    const again = await flightsOf(() => client.unsafe("select $1::int * 2 as twice", [4], { prepare: true }));
    expect([first.flights, again.flights]).toEqual([2, 1]);
    expect([...first.result, ...again.result]).toEqual([{ twice: 42 }, { twice: 8 }]);
  });

  it("answers a statement the server refuses with its error, and the connection serves the next one", async () => {
    await expect(db.execute(sql`select ${"not a number"}::int`)).rejects.toMatchObject({ cause: { code: "22P02" } });
    const { result, flights } = await flightsOf(() => db.execute<{ ok: string }>(sql`select ${"yes"}::text as ok`));
    expect(flights).toBe(1);
    expect([...result]).toEqual([{ ok: "yes" }]);
  });
});
