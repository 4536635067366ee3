import { describe, expect, it } from "vitest";
import { runImportToEnd, runImports } from "../imports/support";
import { clientOfNewAccount, listingBody } from "./support";

describe("client.listings.imports", () => {
  it("creates an import from listing bodies, reads it, and iterates its results", async () => {
    const { client } = await clientOfNewAccount();
    const accepted = await client.listings.imports.create([listingBody("sdk-imp-1"), listingBody("sdk-imp-2"), { title: "no ref" }]);
    expect(accepted.data.status).toBe("queued");
    expect(accepted.lastResponse.status).toBe(202);
    await runImports();
    const read = await client.listings.imports.get(accepted.data.id, { limit: 1 });
    expect(read.data).toMatchObject({ status: "completed", lines: { total: 3, created: 2, refused: 1 } });
    expect(read.meta.next).toBe("1");
    const outcomes: string[] = [];
    for await (const result of client.listings.imports.results(accepted.data.id, { limit: 2 })) outcomes.push(result.outcome);
    expect(outcomes).toEqual(["created", "created", "refused"]);
  });

  it("lists the account's imports newest first, page after page, and one feed's with feedId", async () => {
    const { client } = await clientOfNewAccount();
    const ids: string[] = [];
    for (const ref of ["sdk-list-1", "sdk-list-2"]) {
      const accepted = await client.listings.imports.create([listingBody(ref)]);
      await runImportToEnd(accepted.data.id);
      ids.push(accepted.data.id);
    }
    const listed = [];
    for await (const item of client.listings.imports.list({ perPage: 1 })) listed.push(item);
    expect(listed.map((item) => item.id)).toEqual([ids[1], ids[0]]);
    expect(listed[0]).toMatchObject({ status: "completed", feed_id: null, lines: { created: 1 } });
    const ofFeed = [];
    for await (const item of client.listings.imports.list({ feedId: "feed_0000000000000000" })) ofFeed.push(item);
    expect(ofFeed).toEqual([]);
  });

  it("sends NDJSON text as it is, with an idempotency key", async () => {
    const { client } = await clientOfNewAccount();
    const text = `${JSON.stringify(listingBody("sdk-imp-3"))}\n`;
    const first = await client.listings.imports.create(text, { idempotencyKey: "sdk-import" });
    const again = await client.listings.imports.create(text, { idempotencyKey: "sdk-import" });
    expect(again.data.id).toBe(first.data.id);
    await runImports();
  });

  it("cancels a queued import, and reports import_ended once it has ended", async () => {
    const { client } = await clientOfNewAccount();
    const accepted = await client.listings.imports.create([listingBody("sdk-imp-4")]);
    const cancelled = await client.listings.imports.cancel(accepted.data.id);
    expect(cancelled.lastResponse.status).toBe(200);
    expect(cancelled.data).toMatchObject({ id: accepted.data.id, status: "cancelled", lines: { total: 1, done: 0 } });
    await expect(client.listings.imports.cancel(accepted.data.id)).rejects.toMatchObject({ status: 409, code: "import_ended" });
    await runImports();
  });
});
