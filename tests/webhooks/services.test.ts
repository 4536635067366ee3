import { describe, expect, it } from "vitest";
import { eventTypes } from "@/lib/domain/events";
import { createWebhook, createWebhookFor } from "@/lib/domain/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/domain/webhooks/delete-webhook";
import { listWebhooks } from "@/lib/domain/webhooks/list-webhooks";
import { rotateWebhookSecret } from "@/lib/domain/webhooks/rotate-webhook-secret";
import { startWebhook } from "@/lib/domain/webhooks/start-webhook";
import { stopWebhook } from "@/lib/domain/webhooks/stop-webhook";
import { signingSecretOf } from "@/lib/domain/webhooks/webhook-signing-secret";
import { AppError, ValidationError } from "@/lib/base/errors";
import { idPattern } from "@/lib/base/ids";
import { rows } from "../oauth/rows";
import { operatorCtx } from "../support/fixtures";
import { actionsOf, deliveriesOf, freshAccount, keyedAccount, otherReceiver, receiver, record, webhookOf, webhookRow } from "./support";

const secretPattern = /^whsec_[A-Za-z0-9+/]{43}=$/;

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

const fieldErrors = async (promise: Promise<unknown>) => {
  const error = await refusal(promise);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors;
};

describe("createWebhook", () => {
  it("creates an active webhook, shows its secret once and keeps only an encrypted copy", async () => {
    const account = await freshAccount();
    const created = await createWebhook({
      ctx: account.ctx,
      input: { url: receiver, events: [eventTypes.published, eventTypes.sold, eventTypes.published] },
    });
    expect(created).toMatchObject({
      url: receiver,
      events: [eventTypes.published, eventTypes.sold],
      client_id: null,
      active: true,
      stopped_reason: null,
      secret_rotated_at: null,
    });
    expect(created.id).toMatch(idPattern("webhook"));
    expect(created.secret).toMatch(secretPattern);
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32);

    const listed = await listWebhooks({ ctx: account.ctx });
    expect(listed).toEqual([expect.objectContaining({ id: created.id, url: receiver, active: true })]);
    expect(JSON.stringify(listed)).not.toContain("whsec_");
    const stored = await rows(`select * from webhooks where id = '${created.id}'`);
    expect(stored).not.toContain(created.secret.slice(6));
    expect(stored).not.toContain("whsec_");
    expect(signingSecretOf(await webhookRow(created.id))).toBe(created.secret);
    expect(await actionsOf(account.id)).toEqual(["account.created", "webhook.created"]);
  });

  it("keeps the address as the URL parser writes it", async () => {
    const account = await freshAccount();
    const created = await createWebhook({
      ctx: account.ctx,
      input: { url: "  HTTPS://93.184.215.14:443/a/../hook  ", events: ["listing.sold"] },
    });
    expect(created.url).toBe("https://93.184.215.14/hook");
  });

  it("refuses an address that is not public https, naming /url", async () => {
    const account = await freshAccount();
    const errorsFor = (url: string) => fieldErrors(createWebhook({ ctx: account.ctx, input: { url, events: ["listing.sold"] } }));
    expect(await errorsFor("http://93.184.215.14/hook")).toEqual([{ pointer: "/url", code: "url", params: { scheme: "https" } }]);
    expect(await errorsFor("not an address")).toEqual([{ pointer: "/url", code: "url", params: { scheme: "https" } }]);
    for (const url of [
      "https://127.0.0.1/",
      "https://10.1.2.3/",
      "https://[::1]/",
      "https://2130706433/",
      "https://169.254.169.254/latest",
    ]) {
      expect(await errorsFor(url), url).toEqual([{ pointer: "/url", code: "invalid_value", params: { reason: "url_not_public" } }]);
    }
    expect(await errorsFor("https://user:pass@93.184.215.14/")).toEqual([
      { pointer: "/url", code: "invalid_value", params: { reason: "url_credentials" } },
    ]);
    expect(await errorsFor(`https://93.184.215.14/${"a".repeat(2048)}`)).toEqual([
      { pointer: "/url", code: "max", params: { max: 2048, unit: "characters" } },
    ]);
    expect(await listWebhooks({ ctx: account.ctx })).toEqual([]);
  });

  it("takes known event types other than webhook.test, at least one", async () => {
    const account = await freshAccount();
    const errorsFor = (events: unknown) =>
      fieldErrors(createWebhook({ ctx: account.ctx, input: { url: receiver, events: events as never } }));
    expect(await errorsFor(["webhook.test"])).toEqual([expect.objectContaining({ pointer: "/events/0", code: "in" })]);
    expect(await errorsFor(["listing.published", "listing.teleported"])).toEqual([
      expect.objectContaining({ pointer: "/events/1", code: "in" }),
    ]);
    expect(await errorsFor([])).toEqual([{ pointer: "/events", code: "min", params: { min: 1, unit: "items" } }]);
    expect(await errorsFor(undefined)).toEqual([{ pointer: "/events", code: "required" }]);
  });

  it("allows 5 webhooks per account, stopped ones included: the sixth is limit_reached too_many_webhooks", async () => {
    const account = await freshAccount();
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(await createWebhook({ ctx: account.ctx, input: { url: `${receiver}/${i}`, events: ["listing.sold"] } }));
    await stopWebhook({ ctx: account.ctx, input: { id: made[0].id } });
    const error = await refusal(createWebhook({ ctx: account.ctx, input: { url: otherReceiver, events: ["listing.sold"] } }));
    expect(error).toMatchObject({ code: "limit_reached", status: 409, params: { reason: "too_many_webhooks", limit: 5 } });
    const operator = await refusal(
      createWebhookFor({ ctx: await operatorCtx(), input: { account_id: account.id, url: otherReceiver, events: ["listing.sold"] } }),
    );
    expect(operator).toMatchObject({ code: "limit_reached", params: { reason: "too_many_webhooks" } });
    await deleteWebhook({ ctx: account.ctx, input: { id: made[1].id } });
    await createWebhook({ ctx: account.ctx, input: { url: otherReceiver, events: ["listing.sold"] } });
    expect(await listWebhooks({ ctx: account.ctx })).toHaveLength(5);
  });

  it("lets the operator create a webhook of any account, and of no unknown one", async () => {
    const account = await freshAccount();
    const created = await createWebhookFor({
      ctx: await operatorCtx(),
      input: { account_id: account.id, url: receiver, events: ["media.failed"] },
    });
    expect(created.secret).toMatch(secretPattern);
    expect(await listWebhooks({ ctx: account.ctx })).toEqual([expect.objectContaining({ id: created.id, events: ["media.failed"] })]);
    const unknown = await refusal(
      createWebhookFor({
        ctx: await operatorCtx(),
        input: { account_id: "acct_0000000000000000", url: receiver, events: ["media.failed"] },
      }),
    );
    expect(unknown.code).toBe("not_found");
  });
});

describe("another account's webhook", () => {
  it("is not_found for every change, and never listed", async () => {
    const owner = await freshAccount();
    const stranger = await freshAccount();
    const webhook = await webhookOf(owner.ctx);
    for (const change of [stopWebhook, startWebhook, rotateWebhookSecret, deleteWebhook]) {
      expect((await refusal(change({ ctx: stranger.ctx, input: { id: webhook.id } }))).code).toBe("not_found");
      expect((await refusal(change({ ctx: stranger.ctx, input: { id: "wh_nonsense" } }))).code).toBe("not_found");
    }
    expect(await listWebhooks({ ctx: stranger.ctx })).toEqual([]);
    expect(await webhookRow(webhook.id)).toMatchObject({ active: true, secretRotatedAt: null });
  });
});

describe("stopWebhook and startWebhook", () => {
  it("stop with reason owner and start again; repeating either changes nothing", async () => {
    const account = await freshAccount();
    const webhook = await webhookOf(account.ctx);
    const stopped = await stopWebhook({ ctx: account.ctx, input: { id: webhook.id } });
    expect(stopped).toMatchObject({ active: false, stopped_reason: "owner", stopped_at: expect.any(Date) });
    expect(await stopWebhook({ ctx: account.ctx, input: { id: webhook.id } })).toEqual(stopped);
    const started = await startWebhook({ ctx: account.ctx, input: { id: webhook.id } });
    expect(started).toMatchObject({ active: true, stopped_reason: null, stopped_at: null });
    expect(await startWebhook({ ctx: account.ctx, input: { id: webhook.id } })).toEqual(started);
    expect(await actionsOf(account.id)).toEqual(["account.created", "webhook.created", "webhook.stopped", "webhook.started"]);
  });
});

describe("rotateWebhookSecret", () => {
  it("shows a new secret once; the old one is gone at once", async () => {
    const account = await freshAccount();
    const webhook = await webhookOf(account.ctx);
    const rotated = await rotateWebhookSecret({ ctx: account.ctx, input: { id: webhook.id } });
    expect(rotated.secret).toMatch(secretPattern);
    expect(rotated.secret).not.toBe(webhook.secret);
    expect(signingSecretOf(await webhookRow(webhook.id))).toBe(rotated.secret);
    expect(await rows(`select * from webhooks where id = '${webhook.id}'`)).not.toContain(webhook.secret.slice(6));
    expect((await listWebhooks({ ctx: account.ctx }))[0].secret_rotated_at).toEqual(rotated.secret_rotated_at);
    expect(await actionsOf(account.id)).toEqual(["account.created", "webhook.created", "webhook.secret_rotated"]);
  });
});

describe("deleteWebhook", () => {
  it("deletes the webhook with its deliveries", async () => {
    const account = await keyedAccount();
    const webhook = await webhookOf(account.ctx);
    await record(account.id);
    expect(await deliveriesOf([webhook.id])).toHaveLength(1);
    expect(await deleteWebhook({ ctx: account.ctx, input: { id: webhook.id } })).toEqual({ id: webhook.id });
    expect(await webhookRow(webhook.id)).toBeUndefined();
    expect(await deliveriesOf([webhook.id])).toEqual([]);
    expect((await refusal(deleteWebhook({ ctx: account.ctx, input: { id: webhook.id } }))).code).toBe("not_found");
    expect((await actionsOf(account.id)).slice(-2)).toEqual(["webhook.created", "webhook.deleted"]);
  });
});
