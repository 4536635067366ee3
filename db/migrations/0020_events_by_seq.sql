-- Hand-written: drizzle-kit cannot express partitioned tables (its snapshot, 0020_snapshot.json,
-- records the new primary key). events was partitioned by week on created_at (0017), so a read by
-- cursor (`seq > after order by seq`, GET /events) merged every week's partition; it becomes
-- partitioned by ranges of `seq`: such a read now opens only the range holding its cursor and
-- those after it. The partitions job closes a range after a week by moving the sequence on to the
-- next one (lib/adapters/worker/event-partitions.ts), so retention still drops about a week of
-- events at a time. Every row is moved in this migration's transaction: the old table is renamed
-- with its partitions and indexes, its rows copied, then dropped.
--
-- ensure_event_partitions: the partitions `events_sNNNNNNN` (range k holds seq from k·span to
-- (k+1)·span, excluded) for k from first_k to last_k that do not exist yet, created empty, filled
-- with the rows of their range the DEFAULT partition held, then attached. Returns how many it
-- created. The partitions job calls it for the current range and the next.
CREATE FUNCTION "ensure_event_partitions"(span bigint, first_k bigint, last_k bigint) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  k bigint := first_k;
  partition text;
  created integer := 0;
BEGIN
  -- The same lock as ensure_partitions (partitionLockKey, "part"): one creator at a time.
  PERFORM pg_advisory_xact_lock(1885434484);
  WHILE k <= last_k LOOP
    partition := format('events_s%s', lpad(k::text, 7, '0'));
    IF to_regclass(quote_ident(partition)) IS NULL THEN
      EXECUTE format('CREATE TABLE %I (LIKE "events" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', partition);
      EXECUTE format('WITH moved AS (DELETE FROM "events_default" WHERE seq >= %s AND seq < %s RETURNING *) INSERT INTO %I SELECT * FROM moved',
        k * span, (k + 1) * span, partition);
      EXECUTE format('ALTER TABLE "events" ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', partition, k * span, (k + 1) * span);
      created := created + 1;
    END IF;
    k := k + 1;
  END LOOP;
  RETURN created;
END $$;
--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_by_week";
--> statement-breakpoint
DO $$
DECLARE
  child text;
BEGIN
  FOR child IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"events_by_week"'::regclass LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', child, 'events_by_week' || substr(child, length('events') + 1));
  END LOOP;
END $$;
--> statement-breakpoint
ALTER INDEX "events_account_seq_idx" RENAME TO "events_by_week_account_seq_idx";
--> statement-breakpoint
ALTER INDEX "events_created_idx" RENAME TO "events_by_week_created_idx";
--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigint DEFAULT nextval('events_seq_seq') NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_pkey" PRIMARY KEY("seq")
) PARTITION BY RANGE ("seq");
--> statement-breakpoint
ALTER SEQUENCE "events_seq_seq" OWNED BY "events"."seq";
--> statement-breakpoint
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;
--> statement-breakpoint
-- The ranges of the rows there are, and of the sequence's next values (the range span, 10^9, is
-- eventSeqSpan in lib/adapters/worker/event-partitions.ts).
SELECT "ensure_event_partitions"(1000000000,
  coalesce((SELECT min("seq") FROM "events_by_week"), 0) / 1000000000,
  (SELECT "last_value" FROM "events_seq_seq") / 1000000000 + 1);
--> statement-breakpoint
INSERT INTO "events" ("seq", "account_id", "type", "data", "created_at")
  SELECT "seq", "account_id", "type", "data", "created_at" FROM "events_by_week";
--> statement-breakpoint
DROP TABLE "events_by_week";
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "events_account_seq_idx" ON "events" USING btree ("account_id","seq");
--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");
--> statement-breakpoint
-- events_after: the read of GET /events (lib/domain/events/list-events.ts), planned once per session
-- with a generic plan whose partitions are pruned at execution. Sent as a statement, it was planned
-- anew on every request (PostgreSQL keeps custom plans for it, the generic one's estimate covering
-- every partition), and planning over the partitions cost more than the read: 1.5 × one table's time
-- for a first page, against 1.1 × through this function (docs/benchmarks.md).
CREATE FUNCTION "events_after"(account text, after_seq bigint, row_limit integer) RETURNS SETOF "events"
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN QUERY SELECT * FROM "events" WHERE "account_id" = account AND "seq" > after_seq ORDER BY "seq" LIMIT row_limit;
END $$;
