import { describe, expect, it } from "vitest";
import { POST as resume } from "@/app/api/v1/listings/[code]/resume/route";
import { accountWithKey, call } from "../support/fixtures";
import { activeListing } from "../support/listings";

const resumeAs = (key: string, code: string, locale: "en" | "ro") =>
  call(resume, { path: `/listings/${code}/resume?locale=${locale}`, method: "POST", key, params: { code } });

/**
 * `resume` of a listing that is not paused is 404, as documented. The caller's own listing (one it
 * can read anyway) is told apart with `reason: not_paused` and its state; someone else's listing
 * answers exactly like a missing one, so nothing about it leaks.
 */
describe("POST /listings/{code}/resume of a listing that is not paused", () => {
  it("says, for the caller's own listing, that it is not paused and in which state it is (en and ro)", async () => {
    const { key } = await accountWithKey();
    const listing = await activeListing(key);
    const en = await resumeAs(key, listing.code, "en");
    expect(en.status).toBe(404);
    expect(en.json).toMatchObject({
      code: "not_found",
      reason: "not_paused",
      detail: "The listing is active, not paused: only a paused listing can be resumed.",
    });
    const ro = await resumeAs(key, listing.code, "ro");
    expect(ro.status).toBe(404);
    expect(ro.json).toMatchObject({
      code: "not_found",
      reason: "not_paused",
      detail: "Anunțul este în starea active, nu suspendat: doar un anunț suspendat poate fi reactivat.",
    });
  });

  it("answers someone else's listing exactly like a missing one", async () => {
    const owner = await accountWithKey();
    const stranger = await accountWithKey();
    const listing = await activeListing(owner.key);
    for (const locale of ["en", "ro"] as const) {
      const foreign = await resumeAs(stranger.key, listing.code, locale);
      const missing = await resumeAs(stranger.key, "ZZZZZZZZ", locale);
      expect(foreign.status).toBe(404);
      expect(foreign.json).not.toHaveProperty("reason");
      expect(foreign.json).toEqual(missing.json);
    }
  });
});
