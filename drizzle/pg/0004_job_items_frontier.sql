DROP INDEX "job_items_job_state";--> statement-breakpoint
CREATE INDEX "job_items_frontier" ON "job_items" USING btree ("job_id","state","depth","id");