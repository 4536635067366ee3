import { revalidatePath } from "next/cache";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { goTo, portalAction } from "@/lib/adapters/portal/action";
import { formToken, type FormTokenBinding } from "@/lib/adapters/portal/csrf";
import { fieldsOf, text, texts } from "@/lib/adapters/portal/form-fields";
import { refusalState } from "@/lib/adapters/portal/form-state";
import { AppError } from "@/lib/base/errors";
import type { Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";

/**
 * `portalAction`, the one shape of the portal's server actions, without a request: the session and
 * the request's language are stand-ins (the account's language decides it, as on a page), and so
 * is Next's revalidation, to see when it happens.
 */
const request = vi.hoisted(() => ({
  locale: "en" as "en" | "ro",
  account: { id: "acc-1", language: "en" } as { id: string; language: "en" | "ro" } | null,
}));

vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/adapters/portal/request-locale", () => ({ requestLocale: async () => request.locale }));
vi.mock("@/lib/adapters/portal/session", () => ({
  requireAccount: async () => ({ account: request.account, ctx: { actor: "account" } }),
  requireModerator: async () => ({ account: request.account, ctx: { actor: "moderator" } }),
  visitorSession: async () => ({ account: null, ctx: { actor: "public" } }),
}));

const listingToken: FormTokenBinding<{ code: string }> = { purpose: "test-listing", subject: ({ code }) => [code] };

const posted = (fields: Record<string, string | string[]>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
  return form;
};

const service = vi.fn<(input: unknown) => Promise<unknown>>();

const renameListing = portalAction({
  session: "account",
  input: z.object({ code: text(20), title: text(5) }),
  token: listingToken,
  values: ({ title }) => ({ title }),
  run: async ({ input }) => {
    await service(input);
    return { ok: true, message: "renamed" };
  },
  revalidate: ({ code }) => ["/account/listings", [`/account/listings/${code}`, "layout"]],
});

const tokenOf = (code: string) => formToken({ id: "acc-1" }, listingToken, { code });

/** The redirect Next.js throws, by the address it sends the browser to. */
async function redirectedTo(answer: Promise<unknown>): Promise<string> {
  const error = await answer.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  const digest = (error as { digest?: string } | null)?.digest ?? "";
  expect(digest).toMatch(/^NEXT_REDIRECT;/);
  return digest.split(";")[2];
}

beforeEach(() => {
  request.locale = "en";
  request.account = { id: "acc-1", language: "en" };
  service.mockReset();
  vi.mocked(revalidatePath).mockClear();
});

describe("portalAction", () => {
  it("calls the service with the parsed fields (today's length caps kept) and revalidates after the success", async () => {
    const state = await renameListing({}, posted({ code: "ABCDEFGH", title: "A long title", token: tokenOf("ABCDEFGH") }));
    expect(state).toEqual({ ok: true, message: "renamed" });
    expect(service).toHaveBeenCalledWith({ code: "ABCDEFGH", title: "A lon" });
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([["/account/listings"], ["/account/listings/ABCDEFGH", "layout"]]);
  });

  it.each<Locale>(["en", "ro"])("answers a stale token with the one stale-form message (%s), and does nothing", async (locale) => {
    request.locale = locale;
    for (const token of [undefined, tokenOf("OTHERONE"), formToken({ id: "acc-2" }, listingToken, { code: "ABCDEFGH" })]) {
      const state = await renameListing({}, posted({ code: "ABCDEFGH", title: "T", ...(token ? { token } : {}) }));
      expect(state).toEqual({ ok: false, message: pageMessages(locale).staleForm, values: { title: "T" } });
    }
    expect(service).not.toHaveBeenCalled();
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("refuses a token-bound form to a visitor, who has no account to bind it to", async () => {
    const visitorForm = portalAction({
      session: "visitor",
      input: z.object({ code: text(20) }),
      token: listingToken,
      run: async ({ input }) => {
        await service(input);
        return { ok: true };
      },
    });
    expect(await visitorForm({}, posted({ code: "ABCDEFGH", token: tokenOf("ABCDEFGH") }))).toMatchObject({ ok: false });
    expect(service).not.toHaveBeenCalled();
  });

  it("answers a zod failure with field errors in the request's language, from the API's catalogues", async () => {
    const sized = portalAction({
      session: "account",
      input: z.object({ size: text(20).transform(Number).pipe(z.number().int().max(5)) }),
      run: async () => ({ ok: true }),
      revalidate: ["/somewhere"],
    });
    request.locale = "en";
    const en = await sized({}, posted({ size: "9" }));
    request.locale = "ro";
    const ro = await sized({}, posted({ size: "9" }));
    expect(en.fieldErrors?.size).toBe("Above the maximum of 5.");
    expect(ro.fieldErrors?.size).toBe("Peste maximul de 5.");
    expect(en.ok).toBeUndefined();
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("answers a service's refusal with refusalState and the posted values, without revalidating", async () => {
    const refused = () => new AppError("listing_action_refused", { reason: "open_reports" });
    service.mockRejectedValueOnce(refused());
    request.locale = "ro";
    const state = await renameListing({}, posted({ code: "ABCDEFGH", title: "T", token: tokenOf("ABCDEFGH") }));
    expect(state).toEqual(refusalState(refused(), "ro", { title: "T" }));
    expect(state.message).toBe("Anunțul are sesizări deschise; poate fi șters după ce moderarea le închide.");
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("throws a fault on, without revalidating", async () => {
    const fault = new Error("the database went away");
    service.mockRejectedValueOnce(fault);
    await expect(renameListing({}, posted({ code: "ABCDEFGH", title: "T", token: tokenOf("ABCDEFGH") }))).rejects.toBe(fault);
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("revalidates after a refusal too where the form asks for it", async () => {
    const create = portalAction({
      session: "account",
      input: z.object({ name: text() }),
      run: async () => {
        throw new AppError("forbidden");
      },
      revalidate: ["/settings/api/keys"],
      revalidateAfterRefusal: true,
    });
    expect(await create({}, posted({ name: "x" }))).toMatchObject({ message: expect.any(String) });
    expect(revalidatePath).toHaveBeenCalledWith("/settings/api/keys");
  });

  it("does not revalidate after an answer that says nothing was done (`ok: false`)", async () => {
    const busy = portalAction({
      session: "account",
      input: z.object({}),
      run: async () => ({ ok: false, message: "busy" }),
      revalidate: ["/x"],
    });
    expect(await busy({}, posted({}))).toEqual({ ok: false, message: "busy" });
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("redirects after a success, once the pages are revalidated; also as a plain form action", async () => {
    const decide = portalAction({
      session: "moderator",
      input: z.object({ code: text(20) }),
      token: listingToken,
      run: async ({ input, ctx }) => {
        expect(ctx).toEqual({ actor: "moderator" });
        return goTo(`/moderation?decided=${input.code}`);
      },
      revalidate: [["/moderation", "layout"]],
    });
    const form = posted({ code: "ABCDEFGH", token: tokenOf("ABCDEFGH") });
    expect(await redirectedTo(decide({}, form))).toBe("/moderation?decided=ABCDEFGH");
    expect(revalidatePath).toHaveBeenCalledWith("/moderation", "layout");
    expect(await redirectedTo(decide(form))).toBe("/moderation?decided=ABCDEFGH");
  });

  it("lets a form answer a refusal in words of its own, or redirect on it", async () => {
    const revoke = portalAction({
      session: "account",
      input: z.object({ id: text() }),
      run: async () => {
        throw new AppError("not_found");
      },
      refused: (error) => (error instanceof AppError && error.code === "not_found" ? goTo("/settings/api/keys") : undefined),
    });
    expect(await redirectedTo(revoke({}, posted({ id: "k" })))).toBe("/settings/api/keys");
  });

  it("puts back the values `run` kept once it knew them", async () => {
    const save = portalAction({
      session: "account",
      input: z.object({}),
      run: async ({ keepValues }) => {
        keepValues({ title: "kept" });
        throw new AppError("forbidden");
      },
    });
    expect((await save({}, posted({}))).values).toEqual({ title: "kept" });
  });
});

describe("form fields", () => {
  const fields = z.object({ name: text(3), codes: texts(2), missing: text(), none: texts() });

  it("reads a text capped, a list whether one or many were ticked, and absent fields as empty", () => {
    expect(fields.parse(fieldsOf(posted({ name: ["abcdef", "second"], codes: "one" })))).toEqual({
      name: "abc",
      codes: ["one"],
      missing: "",
      none: [],
    });
    expect(fields.parse(fieldsOf(posted({ name: "", codes: ["a", "b", "c"] }))).codes).toEqual(["a", "b"]);
  });

  it("reads a file where a text was expected as empty", () => {
    const form = new FormData();
    form.set("name", new File(["x"], "x.txt"));
    expect(fields.parse(fieldsOf(form)).name).toBe("");
  });
});
