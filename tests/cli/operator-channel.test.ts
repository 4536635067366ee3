import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "@/db";
import type { LockInfo } from "@/db/lock";
import { chooseRoute } from "@/lib/adapters/cli/main";
import { sendCommand, startOperatorChannel, stopOperatorChannel, type ChannelAddress } from "@/lib/adapters/cli/operator-channel";
import { config } from "@/lib/base/config";
import { newId } from "@/lib/base/ids";
import { authenticate } from "@/lib/domain/keys/authenticate";
import { accountWithKey } from "../support/fixtures";

// The channel serves this process's test database; its lock file lives in a folder of its own.
const folder = mkdtempSync(path.join(tmpdir(), "operator-channel-"));
const dataDir = path.join(folder, "pglite");
const lockFile = `${dataDir}.lock`;
const embedded = { ...config(), DATABASE_URL: undefined, PGLITE_DIR: dataDir, dataDir };
let address: ChannelAddress;

/** The lock as another process would see it: written by a live process that is not this one. */
function lockHeldByAnotherProcess(info: Omit<LockInfo, "pid">): void {
  writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, ...info }));
}

beforeAll(async () => {
  address = await startOperatorChannel({ dataDir });
});

afterAll(async () => {
  await stopOperatorChannel();
  rmSync(folder, { recursive: true, force: true });
});

describe("operator channel", () => {
  it("records its port and token in the lock file of the database folder", () => {
    const lock = JSON.parse(readFileSync(lockFile, "utf8")) as LockInfo;
    expect(lock).toEqual({ pid: process.pid, operatorPort: address.port, operatorToken: address.token });
    expect(address.token.length).toBeGreaterThanOrEqual(40);
  });

  it("is where the CLI sends commands while a live process with a channel holds the folder", async () => {
    lockHeldByAnotherProcess({ operatorPort: address.port, operatorToken: address.token });
    const route = chooseRoute(embedded);
    expect(route).toEqual({ kind: "channel", address });
    if (route.kind !== "channel") return;

    const { account } = await accountWithKey();
    const reply = await sendCommand(route.address, {
      command: "key:create",
      args: { email: account.email, name: "via channel", permissions: "listings:read", days: "30" },
    });
    expect(reply).toMatchObject({ exit_code: 0, result: { id: expect.stringMatching(/^key_/), permissions: ["listings:read"] } });
    if (reply.exit_code !== 0) return;
    const principal = await authenticate(await database(), reply.result.key as string, new Date());
    expect(principal.account.id).toBe(account.id);
  });

  it("passes refusals of a command back with their exit code", async () => {
    const reply = await sendCommand(address, { command: "key:create", args: { email: `${newId("account")}@example.test` } });
    expect(reply).toMatchObject({ exit_code: 2, error: { code: "validation_failed" } });
  });

  it("runs registered commands only", async () => {
    const reply = await sendCommand(address, { command: "shell:exec", args: { cmd: "rm -rf /" } });
    expect(reply).toMatchObject({ exit_code: 2, error: { code: "unknown_command" } });
  });

  it("refuses a wrong token and a missing one", async () => {
    const reply = await sendCommand({ port: address.port, token: `${address.token.slice(0, -1)}x` }, { command: "jobs:run", args: {} });
    expect(reply).toEqual({ exit_code: 1, error: { code: "unauthenticated", detail: expect.any(String) } });
    const response = await fetch(`http://127.0.0.1:${address.port}/commands`, {
      method: "POST",
      body: JSON.stringify({ command: "jobs:run", args: {} }),
    });
    expect(response.status).toBe(401);
  });

  it("refuses bodies that are not a command", async () => {
    const post = (body: string) =>
      fetch(`http://127.0.0.1:${address.port}/commands`, { method: "POST", headers: { authorization: `Bearer ${address.token}` }, body });
    expect((await post("{")).status).toBe(400);
    expect((await post(JSON.stringify({ command: "jobs:run", args: { nested: { a: 1 } } }))).status).toBe(400);
    expect((await post("x".repeat(70_000))).status).toBe(413);
  });
});

describe("chooseRoute", () => {
  it("refuses to open a folder held by a live process without a channel", () => {
    lockHeldByAnotherProcess({});
    expect(chooseRoute(embedded)).toEqual({ kind: "busy", pid: process.ppid });
  });

  it("opens the folder itself when no live process holds it, and connects itself to PostgreSQL", () => {
    rmSync(lockFile, { force: true });
    expect(chooseRoute(embedded)).toEqual({ kind: "direct" });
    lockHeldByAnotherProcess({ operatorPort: address.port, operatorToken: address.token });
    expect(chooseRoute({ ...embedded, DATABASE_URL: "postgres://postgres@127.0.0.1:5432/x" })).toEqual({ kind: "direct" });
  });
});
