import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { activityActor } from "@/lib/domain/accounts/activity-actor";
import { locales, type Locale } from "@/lib/base/i18n";
import { pageMessages } from "@/lib/base/i18n/page-messages";
import { activitySentence, activityWho } from "@/lib/adapters/portal/activity-text";
import { portalDateTime } from "@/lib/adapters/portal/dates";

const en = pageMessages("en").activity;
const ro = pageMessages("ro").activity;

/** Every `action: "…"` a service under lib/domain records in the activity log. */
function recordedActions(): string[] {
  const found = new Set<string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith(".ts")) {
        const text = readFileSync(file, "utf8");
        if (!text.includes("recordActivity(")) continue;
        for (const match of text.matchAll(/action: "([a-z_]+\.[a-z_]+)"/g)) found.add(match[1]);
      }
    }
  };
  walk(path.resolve("lib/domain"));
  return [...found].sort();
}

describe("activitySentence", () => {
  it("has a sentence in both languages for every action a service records", () => {
    const actions = recordedActions();
    expect(actions).toEqual(expect.arrayContaining(["api_key.created", "api_key.revoked", "password.changed", "account.created"]));
    for (const locale of locales) {
      const texts = pageMessages(locale).activity;
      for (const action of actions) expect(Object.keys(texts.actions), `${locale} ${action}`).toContain(action);
    }
  });

  it("names the key or app from the entry's details", () => {
    expect(activitySentence({ action: "api_key.created", details: "Site sync", subjectId: "key_1" }, en, "en")).toBe(
      "Key “Site sync” created",
    );
    expect(activitySentence({ action: "api_key.revoked", details: "Site sync", subjectId: "key_1" }, ro, "ro")).toBe(
      "Cheia „Site sync” a fost revocată",
    );
    expect(activitySentence({ action: "app.connected", details: "CRM", subjectId: "cli_1" }, en, "en")).toBe(
      "App “CRM” connected to your account",
    );
    expect(activitySentence({ action: "password.changed", details: null, subjectId: null }, ro, "ro")).toBe("Parola a fost schimbată");
  });

  it("falls back to the subject when the details are missing", () => {
    expect(activitySentence({ action: "app.registered", details: null, subjectId: "cli_9" }, en, "en")).toBe(
      "Integrator app “cli_9” registered",
    );
  });

  it("shows an action without a sentence by its code, never a text of the prototype", () => {
    expect(activitySentence({ action: "listing.teleported", details: "x", subjectId: null }, en, "en")).toBe("Action listing.teleported");
    expect(activitySentence({ action: "toString", details: null, subjectId: null }, ro, "ro")).toBe("Acțiunea toString");
  });
});

describe("activityWho", () => {
  const keys = new Map([["key_abc", "Site sync"]]);
  const who = (stored: string, locale: Locale = "en") =>
    activityWho(activityActor(stored, "acc_me"), pageMessages(locale).activity, keys, locale);

  it("says who, relative to the viewing account", () => {
    expect(who("account:acc_me")).toBe("You");
    expect(who("account:acc_other")).toBe("Another account");
    expect(who("api:key_abc")).toBe("The key “Site sync”");
    expect(who("api:key_gone")).toBe("The key key_gone");
    expect(who("operator")).toBe("The operator");
    expect(who("system", "ro")).toBe("Sistemul");
    expect(who("moderator:acc_mod")).toBe("A moderator");
    expect(who("public")).toBe("A link sent by e-mail");
    expect(who("garbage")).toBe("Unknown");
  });
});

describe("portalDateTime", () => {
  it("formats in the page's language on Romania's clock, with the zone", () => {
    const at = new Date("2026-11-25T11:00:00Z");
    expect(portalDateTime("en").format(at)).toBe("25 Nov 2026, 13:00 EET");
    expect(portalDateTime("ro").format(at)).toBe("25 nov. 2026, 13:00 EET");
  });
});
