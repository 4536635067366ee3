import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { AppError, ValidationError } from "@/lib/base/errors";
import { json } from "@/lib/adapters/http/respond";
import { canonicalJson, idempotencyWindowMs, withIdempotency, type IdempotentRequest } from "@/lib/adapters/http/idempotency";
import { newId, randomToken } from "@/lib/base/ids";

async function request(overrides: Partial<IdempotentRequest> = {}): Promise<IdempotentRequest> {
  return {
    database: await database(),
    keyId: newId("apiKey"),
    header: `idem-${randomToken(12)}`,
    method: "POST",
    path: "/listings",
    body: { title: "Apartament", rooms: 2 },
    now: new Date(),
    ...overrides,
  };
}

/** A `run` that counts its calls and answers a created listing. */
function creator(status = 201) {
  const run = async () => {
    run.calls++;
    return json(
      { data: { code: `L${run.calls}` } },
      { status, headers: { Location: `/api/v1/account/listings/L${run.calls}`, ETag: `"v${run.calls}"`, "X-Other": "not kept" } },
    );
  };
  run.calls = 0;
  return run;
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

const rowOf = async (req: IdempotentRequest) => {
  const [row] = await req.database.connection
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.keyId, req.keyId), eq(idempotencyKeys.idempotencyKey, req.header!)));
  return row;
};

describe("withIdempotency", () => {
  it("just runs when there is no Idempotency-Key", async () => {
    const run = creator();
    const req = await request({ header: null });
    await withIdempotency(req, run);
    await withIdempotency(req, run);
    expect(run.calls).toBe(2);
  });

  it("replays the stored status, Location, ETag and body to a repeat with the same body", async () => {
    const run = creator();
    const req = await request();
    const first = await withIdempotency(req, run);
    const repeat = await withIdempotency(
      { ...req, body: { rooms: 2, title: "Apartament" }, now: new Date(req.now.getTime() + 60_000) },
      run,
    );
    expect(run.calls).toBe(1);
    expect(repeat.status).toBe(201);
    expect(await repeat.text()).toBe(await first.text());
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(repeat.headers.get("location")).toBe("/api/v1/account/listings/L1");
    expect(repeat.headers.get("etag")).toBe('"v1"');
    expect(repeat.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(repeat.headers.has("x-other")).toBe(false);
    expect(first.headers.has("idempotent-replayed")).toBe(false);
  });

  it.each([400, 404, 409, 422, 429])(
    "releases the key on a %i answer: no record, and the retry runs, with the same body or a fixed one",
    async (status) => {
      const req = await request();
      const refused = await withIdempotency(req, creator(status));
      expect(refused.status).toBe(status);
      expect(await rowOf(req)).toBeUndefined();
      const run = creator();
      const retry = await withIdempotency(req, run);
      expect(retry.status).toBe(201);
      expect(retry.headers.has("idempotent-replayed")).toBe(false);
      const fixed = await request({ header: `idem-${randomToken(12)}` });
      await withIdempotency(fixed, creator(status));
      expect((await withIdempotency({ ...fixed, body: { title: "Apartament", rooms: 3 } }, run)).status).toBe(201);
      expect(run.calls).toBe(2);
    },
  );

  it("releases the key when the run throws a refusal (422), so the fixed body runs with the same key", async () => {
    const req = await request();
    const refusing = async (): Promise<Response> => {
      throw new ValidationError([{ pointer: "/title", code: "required" }]);
    };
    await expect(withIdempotency(req, refusing)).rejects.toBeInstanceOf(ValidationError);
    expect(await rowOf(req)).toBeUndefined();
    const run = creator();
    expect((await withIdempotency({ ...req, body: { title: "Apartament fixed", rooms: 2 } }, run)).status).toBe(201);
  });

  it("refuses the same key with another body or another path with 422 idempotency_key_reused", async () => {
    const run = creator();
    const req = await request();
    await withIdempotency(req, run);
    expect(await codeOf(withIdempotency({ ...req, body: { title: "Apartament", rooms: 3 } }, run))).toBe("idempotency_key_reused");
    expect(await codeOf(withIdempotency({ ...req, path: "/listings/validate" }, run))).toBe("idempotency_key_reused");
    expect(run.calls).toBe(1);
  });

  it("scopes keys per API key", async () => {
    const run = creator();
    const req = await request();
    await withIdempotency(req, run);
    await withIdempotency({ ...req, keyId: newId("apiKey"), body: { other: true } }, run);
    expect(run.calls).toBe(2);
  });

  it("forgets a key after 10 minutes: the row is replaced and the request runs again", async () => {
    const run = creator();
    const req = await request();
    await withIdempotency(req, run);
    const later = { ...req, body: { different: true }, now: new Date(req.now.getTime() + idempotencyWindowMs) };
    const again = await withIdempotency(later, run);
    expect(run.calls).toBe(2);
    expect(again.headers.has("idempotent-replayed")).toBe(false);
    expect(await rowOf(req)).toMatchObject({ state: "done", createdAt: later.now, responseStatus: 201 });
  });

  it("releases the key when the run throws, so the retry runs", async () => {
    const req = await request();
    const failing = async (): Promise<Response> => {
      throw new Error("database went away");
    };
    await expect(withIdempotency(req, failing)).rejects.toThrow("database went away");
    expect(await rowOf(req)).toBeUndefined();
    const run = creator();
    expect((await withIdempotency(req, run)).status).toBe(201);
    expect(run.calls).toBe(1);
  });

  it("releases the key when the run answers 5xx, so the retry runs", async () => {
    const req = await request();
    const failed = await withIdempotency(req, creator(503));
    expect(failed.status).toBe(503);
    expect(await rowOf(req)).toBeUndefined();
    const run = creator();
    expect((await withIdempotency(req, run)).status).toBe(201);
  });

  it.each([
    ["empty", "", "min"],
    ["65 characters", "k".repeat(65), "max"],
  ])("refuses an %s key with 422 at /Idempotency-Key in the header", async (_, header, code) => {
    const run = creator();
    const error = await withIdempotency(await request({ header }), run).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([expect.objectContaining({ pointer: "/Idempotency-Key", in: "header", code })]);
    expect(run.calls).toBe(0);
  });

  it("accepts a key of 64 characters", async () => {
    const run = creator();
    expect((await withIdempotency(await request({ header: "k".repeat(64) }), run)).status).toBe(201);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: [2, 1, { z: 1, a: null }], a: "x" })).toBe('{"a":"x","b":[2,1,{"a":null,"z":1}]}');
    expect(canonicalJson(undefined)).toBe("null");
  });
});
