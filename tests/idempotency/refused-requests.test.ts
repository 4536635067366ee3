import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v1/listings/route";
import { database } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { accountWithKey, call } from "../support/fixtures";
import { validApartment } from "../support/listings";

const create = (key: string, body: unknown, idempotencyKey: string) =>
  call(createRoute, { path: "/listings", method: "POST", key, body, headers: { "idempotency-key": idempotencyKey } });

const recordsOf = async (keyId: string) =>
  (await database()).connection.select().from(idempotencyKeys).where(eq(idempotencyKeys.keyId, keyId));

describe("POST /listings with an Idempotency-Key refused with a 4xx", () => {
  it("keeps no record, so the corrected body runs with the same key; the 201 is then replayed", async () => {
    const { key, keyId } = await accountWithKey();
    const refused = await create(key, validApartment({ title: null }), "crm-7");
    expect(refused.status).toBe(422);
    expect(await recordsOf(keyId)).toEqual([]);
    const again = await create(key, validApartment({ title: null }), "crm-7");
    expect(again.status).toBe(422);
    expect(again.headers.has("idempotent-replayed")).toBe(false);

    const fixed = await create(key, validApartment(), "crm-7");
    expect(fixed.status).toBe(201);
    expect(await recordsOf(keyId)).toEqual([expect.objectContaining({ idempotencyKey: "crm-7", state: "done", responseStatus: 201 })]);
    const replay = await create(key, validApartment(), "crm-7");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json!.data.code).toBe(fixed.json!.data.code);
    expect((await create(key, validApartment({ title: null }), "crm-7")).json!.code).toBe("idempotency_key_reused");
  });
});
