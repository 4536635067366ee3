import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import postgres from "postgres";
import { openDatabase } from "@/db/client";
import { createThrowawayDatabase } from "@/db/throwaway";
import { databaseUnavailable, unreachableMessage } from "@/db/errors";
import { keyedEndpoint } from "@/lib/adapters/http/endpoint";
import { databaseRetryAfterSeconds, renderProblem } from "@/lib/base/problem";
import { apiDocument } from "@/app/api/v1/routes";
import { accountWithKey, call } from "../support/fixtures";
import { onPostgresRun } from "../support/engine";

/** What postgres.js and drizzle throw, reduced to the members the classification reads. */
const driverError = (code: string) => Object.assign(new Error(`write ${code} 127.0.0.1:5432`), { code });
const serverError = (code: string) =>
  Object.assign(new Error("terminating connection due to administrator command"), { code, severity: "FATAL" });
const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1"), { cause });

describe("database unavailable: classification", () => {
  it("recognises lost and refused connections, through drizzle's wrapping", () => {
    for (const code of [
      "ECONNREFUSED",
      "ECONNRESET",
      "EPIPE",
      "ERR_STREAM_DESTROYED",
      "CONNECTION_CLOSED",
      "CONNECTION_ENDED",
      "CONNECTION_DESTROYED",
      "CONNECT_TIMEOUT",
    ]) {
      expect(databaseUnavailable(wrapped(driverError(code)))).toBe(code);
    }
    for (const code of ["57P01", "57P02", "57P03", "53300", "08006", "08001", "3D000", "28000", "28P01", "55000"]) {
      expect(databaseUnavailable(wrapped(serverError(code)))).toBe(code);
    }
    const multiAddress = Object.assign(new AggregateError([driverError("ECONNREFUSED"), driverError("ECONNREFUSED")]), { code: undefined });
    expect(databaseUnavailable(multiAddress)).toBe("ECONNREFUSED");
  });

  it("leaves query errors and our own errors alone", () => {
    for (const code of ["23505", "55P03", "22P02", "40001", "42P01"])
      expect(databaseUnavailable(wrapped(serverError(code)))).toBeUndefined();
    expect(databaseUnavailable(new TypeError("x is undefined"))).toBeUndefined();
    expect(databaseUnavailable(undefined)).toBeUndefined();
  });

  it("classifies what postgres.js really throws when nothing listens at DATABASE_URL", async () => {
    const unreachable = await openDatabase({ url: "postgres://tester:s3cret@127.0.0.1:1/none", poolSize: 1 });
    try {
      const failure = await unreachable.rows(sql`select 1`).catch((error: unknown) => error);
      expect(databaseUnavailable(failure)).toBe("ECONNREFUSED");
    } finally {
      await unreachable.close();
    }
  });

  const adminUrl = process.env.PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  it.skipIf(!onPostgresRun)(
    `classifies a database that stops accepting connections (55000) or is dropped (3D000) while serving${process.env.DATABASE_URL ? "" : " (skipped: needs a PostgreSQL server; npm run test:pg runs it)"}`,
    async () => {
      const target = await createThrowawayDatabase(adminUrl, "test_refusing");
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      const serving = await openDatabase({ url: target.url, poolSize: 1 });
      try {
        expect(await serving.rows(sql`select 1 as one`)).toEqual([{ one: 1 }]);
        await admin.unsafe(`alter database "${target.name}" allow_connections false`);
        await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${target.name}`;
        // The terminated session's own answer (57P01) may come first; the reconnection is then refused.
        let failure: unknown;
        for (let attempt = 0; attempt < 3 && databaseUnavailable(failure) !== "55000"; attempt++)
          failure = await serving.rows(sql`select 1`).catch((error: unknown) => error);
        expect(databaseUnavailable(failure)).toBe("55000");
        await target.drop();
        failure = await serving.rows(sql`select 1`).catch((error: unknown) => error);
        expect(databaseUnavailable(failure)).toBe("3D000");
        expect(renderProblem(failure, "en", "req_1")).toMatchObject({ status: 503, code: "service_unavailable" });
      } finally {
        await serving.close();
        await admin.end();
        await target.drop();
      }
    },
  );

  it("names DATABASE_URL without its password or query string", () => {
    expect(unreachableMessage("postgres://u@h/gone", "3D000")).toContain("fails with 3D000 (the database does not exist)");
    const message = unreachableMessage("postgres://tester:s3cret@db.internal:5433/listings?password=s3cret", "ECONNREFUSED");
    expect(message).toContain("DATABASE_URL points to postgres://tester@db.internal:5433/listings");
    expect(message).toContain("ECONNREFUSED");
    expect(message).not.toContain("s3cret");
    expect(unreachableMessage("not a url with s3cret", "ENOTFOUND")).not.toContain("s3cret");
  });
});

describe("database unavailable: the API's answer", () => {
  it("renders 503 service_unavailable with retry_after in the detail, in both languages", () => {
    const en = renderProblem(wrapped(serverError("57P01")), "en", "req_1");
    const ro = renderProblem(wrapped(serverError("57P01")), "ro", "req_1");
    expect(en).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(en.detail).toContain(String(databaseRetryAfterSeconds));
    expect(ro.detail).toContain(String(databaseRetryAfterSeconds));
    expect(ro.title).not.toBe(en.title);
    expect(JSON.stringify(en)).not.toContain("administrator command");
  });

  it("answers a request whose database connection is lost with 503 problem+json, Retry-After and the request id", async () => {
    const lost = keyedEndpoint(null, async () => {
      throw wrapped(driverError("CONNECTION_CLOSED"));
    });
    const { key } = await accountWithKey();
    const res = await call(lost, { path: "/listings", key });
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.headers.get("retry-after")).toBe(String(databaseRetryAfterSeconds));
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.json).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(res.text).not.toContain("127.0.0.1");
  });

  it("is documented on every operation of the OpenAPI document, with Retry-After", () => {
    const paths = apiDocument().paths ?? {};
    const operations = Object.values(paths).flatMap((item) =>
      Object.entries(item ?? {})
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([, op]) => op as { responses: Record<string, { headers?: object }> }),
    );
    expect(operations.length).toBeGreaterThan(10);
    for (const op of operations) expect(op.responses["503"]?.headers).toHaveProperty("Retry-After");
  });
});
