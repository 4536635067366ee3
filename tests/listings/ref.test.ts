import { describe, expect, it } from "vitest";
import { PUT } from "@/app/api/v1/listings/ref/[ref]/route";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { accountWithKey, call } from "../support/fixtures";
import { moderate, validApartment } from "../support/listings";

const put = (key: string | undefined, ref: string, body: unknown, headers?: Record<string, string>) =>
  call(PUT, { path: `/listings/ref/${ref}`, method: "PUT", key, body, params: { ref }, headers });

describe("PUT /listings/ref/{ref}", () => {
  it("creates on a new ref (201), updates as a merge patch (200), writes nothing for the same body", async () => {
    const { key } = await accountWithKey();
    const created = await put(key, "crm-100", validApartment());
    expect(created.status).toBe(201);
    expect(created.json!.data).toMatchObject({ external_ref: "crm-100", status: "pending" });
    expect(created.headers.get("location")).toBe(`/api/v1/account/listings/${created.json!.data.code}`);
    const updated = await put(key, "crm-100", { price: 180000 });
    expect(updated.status).toBe(200);
    expect(updated.json!.data).toMatchObject({ code: created.json!.data.code, price: 180000, title: validApartment().title });
    const same = await put(key, "crm-100", { price: 180000 });
    expect(same.status).toBe(200);
    expect(same.headers.get("x-service-unchanged")).toBe("true");
    expect(same.json!.data.etag).toBe(updated.json!.data.etag);
    const full = await put(key, "crm-100", validApartment({ price: 180000 }));
    expect(full.headers.get("x-service-unchanged")).toBe("true");
  });

  it("answers 202 for a published listing and holds the edit", async () => {
    const { key } = await accountWithKey();
    const created = await put(key, "crm-200", validApartment());
    await moderate(created.json!.data.code, { decision: "approve" });
    const edit = await put(key, "crm-200", { price: 170000 });
    expect(edit.status).toBe(202);
    expect(edit.json!.data.moderation.edit_pending).toBe(true);
    const events = await call(eventsRoute, { path: "/events", key });
    expect(events.json!.data.map((e: { type: string }) => e.type)).toEqual(["listing.published"]);
  });

  it("refuses a malformed ref, a body ref that differs, and invalid data", async () => {
    const { key } = await accountWithKey();
    const badRef = await put(key, "has space", validApartment());
    expect((await put(key, "x%y", validApartment())).status).toBe(422);
    expect(badRef.status).toBe(422);
    expect(badRef.json!.errors[0]).toMatchObject({ pointer: "/ref", in: "path" });
    const differs = await put(key, "crm-300", validApartment({ external_ref: "other" }));
    expect(differs.json!.errors[0]).toMatchObject({ pointer: "/external_ref", code: "invalid_value" });
    const invalid = await put(key, "crm-300", validApartment({ rooms: 99 }));
    expect(invalid.status).toBe(422);
  });

  it("keeps refs per account: another account's ref creates its own listing", async () => {
    const first = await accountWithKey();
    const second = await accountWithKey();
    const a = await put(first.key, "shared-ref", validApartment());
    const b = await put(second.key, "shared-ref", validApartment());
    expect(b.status).toBe(201);
    expect(b.json!.data.code).not.toBe(a.json!.data.code);
    expect((await put(undefined, "shared-ref", validApartment())).status).toBe(401);
    const reader = await accountWithKey({ permissions: ["listings:read"] });
    expect((await put(reader.key, "shared-ref", validApartment())).status).toBe(403);
  });
});
