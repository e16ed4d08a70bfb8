-- Page-sized values (a page's result, a cached page, a snapshot's markdown) are compressed with
-- lz4 rather than pglz where the server was built with it (PostgreSQL 14 and later): pglz cost a
-- crawled page's finish a sixth to a third of its CPU. Values already stored stay as they are.
-- The statements run through EXECUTE: SET COMPRESSION is a syntax error before PostgreSQL 14,
-- which would fail the whole block when it is compiled, whatever the condition says.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
  ) THEN
    EXECUTE 'ALTER TABLE "job_items" ALTER COLUMN "data" SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE "jobs" ALTER COLUMN "result" SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE "cache_entries" ALTER COLUMN "value" SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE "cache_entries" ALTER COLUMN "body" SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE "page_snapshots" ALTER COLUMN "markdown" SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE "watches" ALTER COLUMN "baseline" SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE "watch_checks" ALTER COLUMN "diff" SET COMPRESSION lz4';
  END IF;
END $$;
