import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { AppError } from "@/lib/base/errors";
import { keyedEndpoint } from "@/lib/adapters/http/endpoint";
import { withIdempotency, type IdempotentRequest } from "@/lib/adapters/http/idempotency";
import { json } from "@/lib/adapters/http/respond";
import { newId, randomToken } from "@/lib/base/ids";
import { accountWithKey, call } from "../support/fixtures";

/** A create under a key nobody has used yet. */
async function freshRequest(): Promise<IdempotentRequest> {
  return {
    database: await database(),
    keyId: newId("apiKey"),
    header: randomToken(20),
    method: "POST",
    path: "/listings",
    body: { title: "Casă" },
    now: new Date(),
  };
}

/** A run that reports when it starts and finishes only when the test says so. */
function gatedRun() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const run = async () => {
    run.calls++;
    started();
    await gate;
    return json({ data: { created: true } }, { status: 201 });
  };
  run.calls = 0;
  return { run, release, running };
}

const outcome = (promise: Promise<Response>) =>
  promise.then(
    (response) => response.status,
    (error: unknown) => (error instanceof AppError ? error.code : error),
  );

// On PostgreSQL (DATABASE_URL) both requests really race for the key on separate connections; on
// PGlite's single session the second arrives while the first's committed row is still in flight.
describe(`Idempotency-Key in flight (${process.env.DATABASE_URL ? "PostgreSQL, concurrent connections" : "PGlite, one session"})`, () => {
  it("runs exactly one of two simultaneous requests with the same key; the other gets 409", async () => {
    const req = await freshRequest();
    const { run, release, running } = gatedRun();
    const first = outcome(withIdempotency(req, run));
    const second = outcome(withIdempotency(req, run));
    await running;
    // Whichever lost the race is refused while the winner is still running.
    const loser = await Promise.race([first, second]);
    expect(loser).toBe("idempotency_key_in_use");
    release();
    expect([await first, await second].sort()).toEqual([201, "idempotency_key_in_use"]);
    expect(run.calls).toBe(1);

    const replay = await withIdempotency(req, run);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(run.calls).toBe(1);
  });

  it("answers 422 rather than 409 to another body under a key in flight", async () => {
    const req = await freshRequest();
    const { run, release, running } = gatedRun();
    const first = withIdempotency(req, run);
    await running;
    expect(await outcome(withIdempotency({ ...req, body: { title: "Teren" } }, run))).toBe("idempotency_key_reused");
    release();
    expect((await first).status).toBe(201);
  });

  it("renders the refusals as problems through the API pipeline", async () => {
    const { key } = await accountWithKey();
    const { run, release, running } = gatedRun();
    const endpoint = keyedEndpoint("listings:write", async ({ ctx, principal, request, body }) =>
      withIdempotency(
        {
          database: ctx.database,
          keyId: principal.key.id,
          header: request.headers.get("idempotency-key"),
          method: "POST",
          path: "/listings",
          body: await body(),
          now: ctx.now,
        },
        run,
      ),
    );
    const post = (idempotencyKey: string, body: unknown) =>
      call(endpoint, { path: "/listings", method: "POST", key, body, headers: { "idempotency-key": idempotencyKey } });

    const first = post("same", { a: 1 });
    await running;
    const busy = await post("same", { a: 1 });
    expect(busy.status).toBe(409);
    expect(busy.json).toMatchObject({ code: "idempotency_key_in_use", status: 409 });
    release();
    expect((await first).status).toBe(201);

    const reused = await post("same", { a: 2 });
    expect(reused.status).toBe(422);
    expect(reused.json).toMatchObject({ code: "idempotency_key_reused", title: expect.any(String), detail: expect.any(String) });

    const tooLong = await post("x".repeat(65), { a: 1 });
    expect(tooLong.status).toBe(422);
    expect(tooLong.json?.errors).toEqual([{ in: "header", pointer: "/Idempotency-Key", code: "max", detail: expect.any(String) }]);

    const replay = await post("same", { a: 1 });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toEqual({ data: { created: true } });
  });
});
