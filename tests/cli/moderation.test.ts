import { describe, expect, it } from "vitest";
import { GET as accountListing } from "@/app/api/v1/account/listings/[code]/route";
import { PATCH } from "@/app/api/v1/listings/[code]/route";
import { GET as eventsRoute } from "@/app/api/v1/events/route";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing, createListing } from "../support/listings";
import { cli, text } from "./support";

const events = async (key: string) =>
  (await call(eventsRoute, { path: "/events", key })).json!.data as { type: string; data: Record<string, unknown> }[];

describe("moderation:approve, moderation:reject, moderation:hide", () => {
  it("publish, reject with reason and codes, and hide any account's listing, printing its moderation state", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);

    const approved = await cli("moderation:approve", listing.code);
    expect(approved).toMatchObject({ exitCode: 0, stderr: "" });
    expect(approved.result).toEqual({
      code: listing.code,
      status: "active",
      title: "Apartament 3 camere Floreasca",
      url: expect.stringMatching(new RegExp(`/listings/${listing.code}$`)),
      moderation: { edit_pending: false, rejection_reason: null, rejection_codes: [] },
    });

    const rejected = await cli(
      "moderation:reject",
      listing.code,
      "--reason",
      "Prețul nu corespunde",
      "--codes",
      "misleading_price, duplicate,misleading_price",
    );
    expect(rejected.exitCode).toBe(0);
    expect(rejected.result).toMatchObject({
      status: "rejected",
      moderation: { edit_pending: false, rejection_reason: "Prețul nu corespunde", rejection_codes: ["misleading_price", "duplicate"] },
    });

    const hidden = await cli("moderation:hide", "--code", listing.code);
    expect(hidden.result).toMatchObject({ code: listing.code, status: "hidden" });

    const seen = await events(key);
    expect(seen.map((event) => event.type)).toEqual(["listing.published", "listing.rejected", "listing.withdrawn"]);
    expect(seen[1].data).toMatchObject({ reason: "Prețul nu corespunde", rejection_codes: ["misleading_price", "duplicate"] });
    expect(seen[2].data).toMatchObject({ status: "hidden", by: "moderation" });
  });

  it("approve applies the edit waiting on a published listing", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const edited = await call(PATCH, {
      path: `/listings/${listing.code}`,
      method: "PATCH",
      key,
      body: { price: 179000 },
      params: { code: listing.code },
    });
    expect(edited.status).toBe(202);
    const approved = await cli("moderation:approve", listing.code);
    expect(approved.result).toMatchObject({ status: "active", moderation: { edit_pending: false } });
    const detail = await call(accountListing, { path: `/account/listings/${listing.code}`, key, params: { code: listing.code } });
    expect(detail.json!.data).toMatchObject({ price: 179000, moderation: { edit_pending: false } });
  });

  it("refuses bad input with exit code 2 and a pointer per flag", async () => {
    const { key } = await accountWithKey();
    const listing = await createListing(key);
    const run = await cli("moderation:reject", listing.code, "--reason", "   ", "--codes", "misleading_price,ugly");
    expect(run).toMatchObject({ exitCode: 2, stdout: "" });
    expect(run.error).toMatchObject({
      code: "validation_failed",
      errors: expect.arrayContaining([
        expect.objectContaining({ pointer: "/reason", code: "min" }),
        expect.objectContaining({ pointer: "/codes/1", code: "in" }),
      ]),
    });
    const missing = await cli("moderation:approve");
    expect(missing).toMatchObject({
      exitCode: 2,
      error: { code: "validation_failed", errors: [expect.objectContaining({ pointer: "/code", code: "required" })] },
    });
    const unknownFlag = await cli("moderation:hide", listing.code, "--reason", "x");
    expect(unknownFlag).toMatchObject({
      exitCode: 2,
      error: { errors: [expect.objectContaining({ pointer: "/reason", code: "unknown_parameter" })] },
    });
  });

  it("answers not_found (exit code 2) for a code no listing has, and refuses an approval with nothing to approve", async () => {
    for (const code of ["ABCDEFGH", "not-a-code"]) {
      const run = await cli("moderation:approve", code);
      expect(run).toMatchObject({ exitCode: 2, error: { code: "not_found" } });
    }
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const run = await cli("moderation:approve", listing.code);
    expect(run).toMatchObject({
      exitCode: 2,
      error: { code: "listing_action_refused", detail: expect.stringContaining("Nothing to approve") },
    });
  });
});

describe("report:create, report:list, report:close", () => {
  it("report an active listing, list the open reports and close them", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const created = await cli("report:create", listing.code, "--reason", "Anunț duplicat", "--reporter-email", "Vizitator@Example.com");
    expect(created).toMatchObject({ exitCode: 0, stderr: "" });
    expect(created.result).toEqual({
      id: expect.stringMatching(/^rpt_/),
      code: listing.code,
      reason: "Anunț duplicat",
      reporter_email: "vizitator@example.com",
      status: "open",
      created_at: expect.any(String),
      closed_at: null,
    });
    const id = text(created.result, "id");

    const listed = await cli("report:list", listing.code);
    expect(listed.result).toEqual({ reports: [created.result] });

    const closed = await cli("report:close", "--id", id);
    expect(closed.result).toMatchObject({ id, code: listing.code, status: "closed", closed_at: expect.any(String) });
    expect((await cli("report:close", "--id", id)).result).toEqual(closed.result);
    expect((await cli("report:list", listing.code)).result).toEqual({ reports: [] });
  });

  it("refuses a listing that is not public, an unknown report and bad input", async () => {
    const { key } = await accountWithKey();
    const pending = await createListing(key);
    expect(await cli("report:create", pending.code, "--reason", "Nu mai e disponibil")).toMatchObject({
      exitCode: 2,
      error: { code: "not_found" },
    });
    expect(await cli("report:close", "--id", "rpt_0000000000000000")).toMatchObject({ exitCode: 2, error: { code: "not_found" } });
    expect(await cli("report:close", "--id", "nope")).toMatchObject({ exitCode: 2, error: { code: "not_found" } });
    const bad = await cli("report:create", pending.code, "--reporter-email", "nope");
    expect(bad).toMatchObject({ exitCode: 2, error: { code: "validation_failed" } });
    expect(bad.error!.errors!.map((error) => error.pointer).sort()).toEqual(["/reason", "/reporter-email"]);
  });
});
