-- Hand-written: events_after (0020) reads range by range. As one statement over the partitioned
-- table, a read from the oldest event (a first page of GET /events, `after` 0) merged every range's
-- index, where a read from a recent cursor opened one or two: with 5 000 000 events the first page
-- took 1.64 × a deep one (docs/benchmarks.md). Now the ranges are read in order, each pruned to its
-- own partition, until the page is full, so a page opens the ranges its rows are in and seldom more.
-- While DEFAULT holds a row of the account after the cursor (a range whose partition did not exist
-- yet when it was written, until the partitions job moves it), the read is the one statement as
-- before, which merges DEFAULT with the ranges in order.
CREATE OR REPLACE FUNCTION "events_after"(account text, after_seq bigint, row_limit integer) RETURNS SETOF "events"
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  -- The range span (eventSeqSpan in lib/adapters/worker/event-partitions.ts).
  span constant bigint := 1000000000;
  k bigint;
  last_k bigint;
  taken integer := 0;
  got integer;
BEGIN
  IF EXISTS (SELECT 1 FROM "events_default" WHERE "account_id" = account AND "seq" > after_seq) THEN
    RETURN QUERY SELECT * FROM "events" WHERE "account_id" = account AND "seq" > after_seq ORDER BY "seq" LIMIT row_limit;
    RETURN;
  END IF;
  -- The attached ranges (partitions events_sNNNNNNN); every row of the account after the cursor is in one of them.
  SELECT min(substr(c.relname, 9)::bigint), max(substr(c.relname, 9)::bigint) INTO k, last_k
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = '"events"'::regclass AND c.relname ~ '^events_s[0-9]+$';
  k := greatest(k, after_seq / span);
  WHILE k <= last_k AND taken < row_limit LOOP
    RETURN QUERY SELECT * FROM "events"
      WHERE "account_id" = account AND "seq" > after_seq AND "seq" >= k * span AND "seq" < (k + 1) * span
      ORDER BY "seq" LIMIT row_limit - taken;
    GET DIAGNOSTICS got = ROW_COUNT;
    taken := taken + got;
    k := k + 1;
  END LOOP;
END $$;
