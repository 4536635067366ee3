import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database, type Database } from "@/db";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { executeCommand } from "@/lib/adapters/cli/execute";
import { operatorContext } from "@/lib/base/context";
import { listRates, loadRates, setRate, withdrawRate } from "@/lib/domain/currency";
import { ValidationError } from "@/lib/base/errors";

// These tests change rates, which every listing test converts prices with: they get a database of
// their own instead of the one test files share on PostgreSQL.
let own: Database;
beforeAll(async () => {
  own = await openDatabase({ dataDir: "memory://" });
  await migrateDatabase(own);
});
afterAll(async () => {
  await own.close();
});

const dayMs = 86_400_000;
const ctxAt = (now: Date) => operatorContext(own, { now });
const rateValues = (rates: Awaited<ReturnType<typeof loadRates>>) =>
  Object.fromEntries(Object.entries(rates).map(([currency, rate]) => [currency, rate?.eurPerUnit]));

const fieldErrors = async (promise: Promise<unknown>) => {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof ValidationError)) throw new Error(`expected a ValidationError, got ${String(error)}`);
  return error.errors.map(({ pointer, code }) => ({ pointer, code }));
};

describe("reference rates", () => {
  it("are seeded for every offered currency by the migrations", async () => {
    expect(rateValues(await loadRates(own.connection))).toEqual({ EUR: 1, RON: 0.201, USD: 0.92, GBP: 1.17 });
  });

  it("stay in force until withdrawn, and a withdrawn rate comes back with setRate", async () => {
    const later = new Date(Date.now() + 400 * dayMs);
    expect((await loadRates(own.connection, later)).RON?.eurPerUnit).toBe(0.201);
    expect(await withdrawRate({ ctx: ctxAt(later), input: { currency: "RON" } })).toEqual({ currency: "RON", withdrawn: true });
    expect((await loadRates(own.connection, later)).RON).toBeUndefined();
    expect((await listRates({ ctx: ctxAt(later) })).find((rate) => rate.currency === "RON")?.available).toBe(false);
    const row = await setRate({ ctx: ctxAt(later), input: { currency: "RON", eurPerUnit: 0.20104567 } });
    expect(row).toEqual({ currency: "RON", eurPerUnit: 0.20104567, updatedAt: later });
    expect((await loadRates(own.connection, later)).RON).toEqual({ eurPerUnit: 0.20104567, updatedAt: later });
    expect((await loadRates(own.connection, later)).EUR).toEqual({ eurPerUnit: 1, updatedAt: later });
  });

  it("refuses EUR, currencies not offered and rates out of bounds", async () => {
    const ctx = ctxAt(new Date());
    expect(await fieldErrors(setRate({ ctx, input: { currency: "EUR", eurPerUnit: 2 } }))).toEqual([{ pointer: "/currency", code: "in" }]);
    expect(await fieldErrors(setRate({ ctx, input: { currency: "CHF", eurPerUnit: 1 } }))).toEqual([{ pointer: "/currency", code: "in" }]);
    expect(await fieldErrors(setRate({ ctx, input: { currency: "USD", eurPerUnit: 0 } }))).toEqual([
      { pointer: "/eurPerUnit", code: "min" },
    ]);
    expect(await fieldErrors(setRate({ ctx, input: { currency: "USD", eurPerUnit: 2_000_000 } }))).toEqual([
      { pointer: "/eurPerUnit", code: "max" },
    ]);
  });

  it("are read as numbers on the configured driver", async () => {
    const rates = await loadRates((await database()).connection);
    expect(rates.EUR?.eurPerUnit).toBe(1);
    for (const currency of ["RON", "USD", "GBP"]) expect(typeof rates[currency]?.eurPerUnit).toBe("number");
  });
});

describe("rates:set and rates:list", () => {
  it("set a rate and list every currency with its availability", async () => {
    const set = await executeCommand(own, { command: "rates:set", args: { currency: "GBP", "eur-per-unit": "1.185" } });
    expect(set).toEqual({ exit_code: 0, result: { currency: "GBP", eur_per_unit: 1.185, updated_at: expect.any(String) } });
    const list = await executeCommand(own, { command: "rates:list", args: {} });
    if (list.exit_code !== 0) throw new Error(`rates:list failed: ${JSON.stringify(list)}`);
    const rates = list.result.rates as { currency: string; eur_per_unit: number; available: boolean }[];
    expect(rates.map(({ currency, eur_per_unit }) => [currency, eur_per_unit])).toEqual([
      ["EUR", 1],
      ["RON", expect.any(Number)],
      ["USD", expect.any(Number)],
      ["GBP", 1.185],
    ]);
    expect(rates.find((rate) => rate.currency === "GBP")?.available).toBe(true);
  });

  it("refuse bad flags with pointers named after them", async () => {
    const reply = await executeCommand(own, { command: "rates:set", args: { currency: "EUR", "eur-per-unit": "ten" } });
    expect(reply.exit_code).toBe(2);
    const errors = "error" in reply ? reply.error.errors?.map(({ pointer, code }) => ({ pointer, code })) : [];
    expect(errors).toEqual([
      { pointer: "/currency", code: "in" },
      { pointer: "/eur-per-unit", code: "numeric" },
    ]);
  });
});
