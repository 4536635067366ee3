import { describe, expect, it } from "vitest";
import { database, databaseOpened } from "@/db";
import { boot } from "@/lib/adapters/boot";

describe("boot", () => {
  it("starts a process once: a later call answers the process already started", async () => {
    const first = await boot({ role: "cli" });
    expect(await boot({ role: "worker" })).toBe(first);
    expect(first.role).toBe("cli");
  });

  it("stops what it started (the database closed) and starts again when called after the stop", async () => {
    const started = await boot({ role: "cli" });
    await database();
    await started.stop();
    expect(databaseOpened()).toBe(false);

    const again = await boot({ role: "cli", database: { template: process.env.PGLITE_TEMPLATE } });
    expect(again).not.toBe(started);
    await database();
    expect(databaseOpened()).toBe(true);
  });
});
