/**
 * A stand-in for the app process in the kill tests (`delivery-kill.test.ts`), run with
 * `node --import tsx tests/faults/delivery-worker.ts` and an IPC channel. It opens the database
 * where its environment says (`DATABASE_URL`, else `PGLITE_DIR`, as the server does) and starts the
 * embedded runner's delivery lane exactly as `startJobRunner` does (`new DeliveryLane({ database })`,
 * default options, then `start()`); the rest of the job runner is left out, since only deliveries are under test.
 *
 * Its clock is the test's: `Date` stands still at `WORKER_NOW` (epoch milliseconds) until a `clock`
 * message moves it, so leases and retry times come due when the test says, with no real waiting.
 * The lane reads `new Date()` like the rest of the app; nothing in production code knows about this.
 *
 * Messages from the test: `{ type: "clock", id, now }` sets the clock and wakes the lane the way a
 * commit does (NOTIFY on the deliveries channel); `{ type: "rows", id, webhookIds }` answers those
 * webhooks' delivery rows. It sends `{ type: "ready" }` once its lane's first pass has ended (every
 * delivery due at start claimed), and `{ type: "reply", id, ... }` to each message.
 */

let frozenNow = Number(process.env.WORKER_NOW);
if (!Number.isFinite(frozenNow)) throw new Error("WORKER_NOW (epoch milliseconds) must be set");

const RealDate = Date;
class TestClockDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(frozenNow);
    else super(...(args as [string | number | Date]));
  }

  static now(): number {
    return frozenNow;
  }
}
// Installed before the app's modules load (they are imported below, dynamically, for that reason).
globalThis.Date = TestClockDate as DateConstructor;

type Message = { type: "clock"; id: number; now: number } | { type: "rows"; id: number; webhookIds: string[] };

async function main(): Promise<void> {
  const { inArray, sql } = await import("drizzle-orm");
  const { configureDatabase, database } = await import("@/db");
  const { webhookDeliveries } = await import("@/db/schema");
  const { deliveriesChannel } = await import("@/lib/domain/webhooks/delivery");
  const { databaseSettings } = await import("@/lib/base/config");
  const { DeliveryLane } = await import("@/lib/domain/webhooks/delivery");

  configureDatabase(databaseSettings);
  const db = await database();
  const lane = new DeliveryLane({ database: db });
  await lane.start();
  // start() resolves once its first pass has started; the test wants to know it has ended.
  await lane.passEnded();

  process.on("message", (message: Message) => {
    const answer = async () => {
      if (message.type === "clock") {
        frozenNow = message.now;
        await db.connection.execute(sql`select pg_notify(${deliveriesChannel}, '')`);
        return {};
      }
      const rows = await db.connection.select().from(webhookDeliveries).where(inArray(webhookDeliveries.webhookId, message.webhookIds));
      return { rows };
    };
    answer().then(
      (result) => process.send!({ type: "reply", id: message.id, ...result }),
      (error: unknown) => process.send!({ type: "reply", id: message.id, error: String(error) }),
    );
  });
  process.send!({ type: "ready", pid: process.pid });
}

main().catch((error: unknown) => {
  console.error("delivery-worker failed:", error);
  process.exit(1);
});
