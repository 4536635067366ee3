import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/listings/[code]/route";
import { listings } from "@/db/schema";
import { withTransaction } from "@/lib/base/context";
import { AppError } from "@/lib/base/errors";
import { lockAnyListing } from "@/lib/domain/listings/locking";
import { updateListing } from "@/lib/domain/listings/store";
import { accountWithKey, call, operatorCtx } from "../support/fixtures";
import { createListing } from "../support/listings";

/**
 * A write applies to the version its transaction read and checked, never over a newer one: were the
 * locked read stale (a pooler that ran it in another session than the write), the write is refused
 * and nothing changes. The newer version is made here inside the same transaction, between the read
 * and the write, as another session's commit would be.
 */
describe("a listing's write over a version it did not read", () => {
  it("is refused with listing_busy and writes nothing", async () => {
    const { key } = await accountWithKey();
    const { code } = await createListing(key);
    const before = await call(GET, { path: `/listings/${code}`, key, params: { code } });

    const refused = await withTransaction(await operatorCtx(), async (tx) => {
      const { row } = await lockAnyListing(tx, code);
      await tx.db
        .update(listings)
        .set({ version: sql`${listings.version} + 1` })
        .where(eq(listings.id, row.id));
      return updateListing(tx, row, { fields: { ...row.fields, rooms: 9 } }).catch((error: unknown) => error);
    }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("listing_busy");
    const after = await call(GET, { path: `/listings/${code}`, key, params: { code } });
    expect(after.headers.get("etag")).toBe(before.headers.get("etag"));
    expect(after.json).toEqual(before.json);
  });
});
