import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, ReplicaSettingsError, type Connection } from "@/db/client";
import { replicaName, ReplicaSet, type Replica } from "@/db/replicas";
import { databaseSettings } from "@/lib/base/config";
import { restoreEnv, setEnv } from "../support/env";

/** Replicas whose connections are never used: the set only keeps the turns. */
const replicas = (...names: string[]): Replica[] => names.map((name) => ({ name, connection: {} as Connection }));

/** A set on a clock the test moves. */
function setOf(names: string[], retryAfterMs = 1_000) {
  let now = 0;
  const list = replicas(...names);
  const set = new ReplicaSet(list, retryAfterMs, () => now);
  return { set, list, advance: (ms: number) => (now += ms) };
}

const picks = (set: ReplicaSet, count: number) => Array.from({ length: count }, () => set.pick()?.name ?? "primary");

describe("ReplicaSet: which replica the next read goes to", () => {
  it("spreads reads round robin over the replicas", () => {
    const { set } = setOf(["a", "b", "c"]);
    expect(picks(set, 7)).toEqual(["a", "b", "c", "a", "b", "c", "a"]);
  });

  it("leaves a replica out while it rests, and says only once that it stopped serving", () => {
    const { set, list } = setOf(["a", "b"]);
    expect(set.unreachable(list[0])).toBe(true);
    expect(set.unreachable(list[0])).toBe(false);
    expect(picks(set, 3)).toEqual(["b", "b", "b"]);
  });

  it("with every replica resting, reads go to the primary", () => {
    const { set, list } = setOf(["a"]);
    set.unreachable(list[0]);
    expect(picks(set, 3)).toEqual(["primary", "primary", "primary"]);
  });

  it("once the rest is over, one read tries the replica, not every read", () => {
    const { set, list, advance } = setOf(["a"], 1_000);
    set.unreachable(list[0]);
    advance(999);
    expect(picks(set, 1)).toEqual(["primary"]);
    advance(1);
    expect(picks(set, 3)).toEqual(["a", "primary", "primary"]);
    // That try failed too: it rests again, from then.
    expect(set.unreachable(list[0])).toBe(false);
    advance(999);
    expect(picks(set, 1)).toEqual(["primary"]);
    advance(1);
    expect(picks(set, 1)).toEqual(["a"]);
    // It answered: it serves again, said once.
    expect(set.answered(list[0])).toBe(true);
    expect(set.answered(list[0])).toBe(false);
    expect(picks(set, 2)).toEqual(["a", "a"]);
  });

  it("names a replica by host, port and database, never its user or password", () => {
    expect(replicaName("postgres://app:s3cret@replica-1.internal:5433/listings?sslmode=require")).toBe("replica-1.internal:5433/listings");
    expect(replicaName("not a url")).toBe("an address that is not a valid URL");
  });
});

describe("DATABASE_REPLICA_URLS", () => {
  afterEach(() => {
    restoreEnv();
  });

  const replicaUrlsWith = (value: string | undefined) => {
    setEnv({ DATABASE_URL: "postgres://app@db:5432/listings", DATABASE_REPLICA_URLS: value });
    return databaseSettings().replicaUrls;
  };

  it("is a comma-separated list of PostgreSQL addresses, none by default", () => {
    expect(replicaUrlsWith(undefined)).toBeUndefined();
    expect(replicaUrlsWith(" postgres://app@r1:5432/listings , postgresql://app@r2/listings,")).toEqual([
      "postgres://app@r1:5432/listings",
      "postgresql://app@r2/listings",
    ]);
  });

  it("refuses an entry that is not a PostgreSQL address, without repeating it", () => {
    expect(() => replicaUrlsWith("postgres://app@r1/listings,https://app:hunter2@r2/listings")).toThrow(
      "DATABASE_REPLICA_URLS.1 (each replica is a postgres:// or postgresql:// address)",
    );
    expect(() => replicaUrlsWith("postgres://app@r1/listings,https://app:hunter2@r2/listings")).not.toThrow("hunter2");
  });

  it("is refused without DATABASE_URL: the embedded database has no replicas", async () => {
    await expect(openDatabase({ dataDir: "memory://", replicaUrls: ["postgres://app@r1/listings"] })).rejects.toBeInstanceOf(
      ReplicaSettingsError,
    );
  });
});
