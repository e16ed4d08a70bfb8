ALTER TABLE "job_items" ADD COLUMN "seq" bigint;--> statement-breakpoint
UPDATE "job_items" AS j SET "seq" = r.n FROM (SELECT "id", row_number() OVER (PARTITION BY "job_id" ORDER BY "id") AS n FROM "job_items" WHERE "state" <> 'pending') AS r WHERE j."id" = r."id";--> statement-breakpoint
CREATE UNIQUE INDEX "job_items_job_seq" ON "job_items" USING btree ("job_id","seq");
