import { describe, expect, it } from "vitest";
import { eventWaiters } from "@/lib/domain/events";
import { ApiError } from "@/sdk/src/index";
import { clientOfNewAccount, listingBody } from "./support";

/**
 * The typed client (sdk/) against the real server: the route handlers and the run's database answer
 * every request (PGlite under `npm test`, PostgreSQL under `npm run test:pg`).
 */
describe("the typed client against the server", () => {
  it("creates, reads, and patches with If-Match, sending the key and an Idempotency-Key on the create", async () => {
    const { client, key, requests } = await clientOfNewAccount();

    const created = await client.listings.create(listingBody("sdk-1"));
    expect(created.lastResponse.status).toBe(201);
    expect(created.lastResponse.requestId).toMatch(/\S/);
    expect(created.data.status).toBe("pending");
    const [createRequest] = requests;
    expect(createRequest.headers.get("authorization")).toBe(`Bearer ${key}`);
    expect(createRequest.headers.get("accept")).toBe("application/json");
    expect(createRequest.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);

    const read = await client.listings.get(created.data.code);
    expect(read.data.external_ref).toBe("sdk-1");
    expect(read.lastResponse.headers.get("etag")).toBe(read.data.etag);
    expect(await client.listings.getByRef("sdk-1")).toMatchObject({ data: { code: created.data.code } });

    const patched = await client.listings.update(created.data.code, { price: 179000, negotiable: true }, { ifMatch: read.data.etag });
    expect(patched.lastResponse.status).toBe(200);
    expect(patched.data).toMatchObject({ price_declared: { amount: 179000, currency: "EUR" }, negotiable: true });
    const patchRequest = requests.at(-1)!;
    expect(patchRequest.method).toBe("PATCH");
    expect(patchRequest.headers.get("content-type")).toBe("application/merge-patch+json");
    expect(patchRequest.headers.get("if-match")).toBe(read.data.etag);
    // Only the create's operation accepts the header.
    expect(patchRequest.headers.has("idempotency-key")).toBe(false);

    const stale = await client.listings
      .update(created.data.code, { price: 1 }, { ifMatch: read.data.etag })
      .catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(ApiError);
    expect(stale).toMatchObject({ status: 412, code: "listing_changed_meanwhile", errors: [] });
  });

  it("uses the caller's Idempotency-Key, and the server replays the first answer to a repeat", async () => {
    const { client, requests } = await clientOfNewAccount();
    const first = await client.listings.create(listingBody("sdk-idem"), { idempotencyKey: "order-42" });
    const again = await client.listings.create(listingBody("sdk-idem"), { idempotencyKey: "order-42" });
    expect(requests.map((request) => request.headers.get("idempotency-key"))).toEqual(["order-42", "order-42"]);
    expect(again.data.code).toBe(first.data.code);
    expect(again.lastResponse.headers.get("idempotent-replayed")).toBe("true");
  });

  it("walks every page of the account's listings with for await, following meta.next_cursor", async () => {
    const { client, requests } = await clientOfNewAccount();
    const codes = [];
    for (const ref of ["sdk-p1", "sdk-p2", "sdk-p3"]) codes.push((await client.listings.create(listingBody(ref))).data.code);

    const seen = [];
    for await (const listing of client.listings.list({ per_page: 2 })) seen.push(listing.code);

    expect(seen.sort()).toEqual(codes.sort());
    const pages = requests.filter((request) => new URL(request.url).pathname.endsWith("/account/listings"));
    expect(pages).toHaveLength(2);
    expect(new URL(pages[0].url).searchParams.has("cursor")).toBe(false);
    expect(new URL(pages[1].url).searchParams.get("cursor")).toMatch(/\S/);
    expect(new URL(pages[1].url).searchParams.get("per_page")).toBe("2");
  });

  it("walks every event with for await, requesting the next page with after = meta.next", async () => {
    const { client, requests } = await clientOfNewAccount();
    const codes = [];
    for (const ref of ["sdk-e1", "sdk-e2", "sdk-e3"]) {
      const { data } = await client.listings.create(listingBody(ref));
      await client.listings.simulateModeration(data.code, { decision: "approve" });
      codes.push(data.code);
    }
    await client.listings.pause(codes[0]);
    await client.listings.resume(codes[0]);
    await client.listings.markSold(codes[1]);

    const events = [];
    for await (const event of client.events.list({ limit: 2 })) events.push(event);

    expect(events.map((event) => [event.type, event.data.code])).toEqual([
      ...codes.map((code) => ["listing.published", code]),
      ["listing.paused", codes[0]],
      ["listing.reactivated", codes[0]],
      ["listing.sold", codes[1]],
    ]);
    const pages = requests.filter((request) => new URL(request.url).pathname.endsWith("/events"));
    expect(pages).toHaveLength(3);
    expect(new URL(pages[1].url).searchParams.get("after")).toBe(events[1].id);
    expect(new URL(pages[2].url).searchParams.get("after")).toBe(events[3].id);

    const rest = [];
    for await (const event of client.events.list({ after: events[4].id })) rest.push(event.id);
    expect(rest).toEqual([events[5].id]);
  });

  it("triggers a sandbox event of a listing (202), then read back by events.list", async () => {
    const { client } = await clientOfNewAccount();
    const { data } = await client.listings.create(listingBody("sdk-trigger"));
    const triggered = await client.events.trigger({ type: "listing.sold", code: data.code });
    expect(triggered.lastResponse.status).toBe(202);
    expect(triggered.data).toMatchObject({ type: "listing.sold", data: { code: data.code, status: "pending" } });
    const listed = [];
    for await (const event of client.events.list()) listed.push(event.id);
    expect(listed).toEqual([triggered.data.id]);
  });

  it("follows the stream with wait: at its end it long-polls, and yields each event as it is committed", async () => {
    const { client, key, requests } = await clientOfNewAccount();
    const { data: listing } = await client.listings.create(listingBody("sdk-wait"));
    await client.listings.simulateModeration(listing.code, { decision: "approve" });
    const keyId = key.split("|")[0];
    // Once the iteration waits at the end of the stream, the listing is paused: its event ends the wait.
    const pauseWhenWaiting = (async () => {
      await expect.poll(() => eventWaiters().waiting(`api:${keyId}`), { timeout: 10_000, interval: 10 }).toBe(1);
      await client.listings.pause(listing.code);
    })();

    const events = [];
    for await (const event of client.events.list({ wait: 20 })) {
      events.push(event);
      if (events.length === 2) break;
    }
    await pauseWhenWaiting;

    expect(events.map((event) => [event.type, event.data.code])).toEqual([
      ["listing.published", listing.code],
      ["listing.paused", listing.code],
    ]);
    const pages = requests.filter((request) => new URL(request.url).pathname.endsWith("/events")).map((request) => new URL(request.url));
    expect(pages.map((url) => [url.searchParams.get("after"), url.searchParams.get("wait")])).toEqual([
      [null, "20"],
      [events[0].id, "20"],
    ]);
  });

  it("throws a 422 as an ApiError whose errors[] point at the fields", async () => {
    const { client } = await clientOfNewAccount();
    const error = await client.listings.create({ ...listingBody("sdk-bad"), title: "short", rooms: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    const problem = error as ApiError;
    expect(problem).toMatchObject({ status: 422, code: "validation_failed" });
    expect(problem.requestId).toMatch(/\S/);
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: "/title", code: "min", detail: expect.any(String) }),
        expect.objectContaining({ pointer: "/rooms" }),
      ]),
    );
  });

  it("throws a 404 as an ApiError in the client's language", async () => {
    const { client } = await clientOfNewAccount({ language: "ro" });
    const error = (await client.listings.get("ZZZZZZZZ").catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: "not_found", title: "Negăsit" });
    expect(error.message).toContain("404 not_found");

    const english = await clientOfNewAccount({ language: "en" });
    await expect(english.client.listings.delete("ZZZZZZZZ")).rejects.toMatchObject({ status: 404, title: "Not found" });
  });

  it("uploads a photo and sets the listing's photos; deletes a listing", async () => {
    const { client } = await clientOfNewAccount();
    const { data } = await client.listings.create(listingBody("sdk-photo"));
    const key = await client.uploads.upload(new Uint8Array(1024));
    const queued = await client.listings.setPhotos(data.code, [{ key, rooms: ["living"] }]);
    expect(queued.lastResponse.status).toBe(202);
    expect(queued.queued).toBe(1);

    const deleted = await client.listings.delete(data.code);
    expect(deleted.status).toBe(204);
    await expect(client.listings.get(data.code)).rejects.toMatchObject({ status: 404 });
  });

  it("puts a listing by its own reference: 201 when new, then a patch", async () => {
    const { client } = await clientOfNewAccount();
    const created = await client.listings.putByRef("sdk-ref-1", listingBody("sdk-ref-1"));
    expect(created.lastResponse.status).toBe(201);
    const same = await client.listings.putByRef("sdk-ref-1", listingBody("sdk-ref-1"));
    expect(same.lastResponse.headers.get("x-service-unchanged")).toBe("true");
    expect(same.data.code).toBe(created.data.code);
  });

  it("reads the public catalog, stopping the walk when the caller breaks out", async () => {
    const { client, requests } = await clientOfNewAccount();
    const { data } = await client.listings.create(listingBody("sdk-catalog"));
    await client.listings.simulateModeration(data.code, { decision: "approve" });
    expect(await client.catalog.get(data.code)).toMatchObject({ data: { code: data.code } });

    const first = [];
    for await (const listing of client.catalog.list({ per_page: 1 })) {
      first.push(listing);
      break;
    }
    expect(first).toHaveLength(1);
    expect(first[0]).not.toHaveProperty("status");
    const pages = requests.filter((request) => request.method === "GET" && new URL(request.url).pathname.endsWith("/api/v1/listings"));
    expect(pages).toHaveLength(1);
  });

  it("exposes the raw typed client for everything else", async () => {
    const { client } = await clientOfNewAccount();
    const { data, response } = await client.raw.GET("/schema");
    expect(response.status).toBe(200);
    expect(data).toBeDefined();
  });
});
