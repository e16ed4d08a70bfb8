CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tier" text NOT NULL,
	"extra_usage_enabled" boolean DEFAULT false NOT NULL,
	"extra_balance_micros" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint,
	"revoked_at" bigint,
	CONSTRAINT "api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "burst_windows" (
	"subject" text PRIMARY KEY NOT NULL,
	"times" bigint[] NOT NULL,
	"admitted" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cache_entries" (
	"key" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"value" text NOT NULL,
	"body" "bytea",
	"size" bigint DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"accessed_at" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"url" text NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"state" text NOT NULL,
	"data" text,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"account_id" text NOT NULL,
	"input" text NOT NULL,
	"webhook" text,
	"total" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"credits_used" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"finished_at" bigint,
	"expires_at" bigint,
	"result" text
);
--> statement-breakpoint
CREATE TABLE "page_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"url" text NOT NULL,
	"tag" text DEFAULT '' NOT NULL,
	"markdown" "bytea" NOT NULL,
	"status_code" integer NOT NULL,
	"scraped_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"key_id" text,
	"route" text NOT NULL,
	"status" integer NOT NULL,
	"duration_ms" bigint NOT NULL,
	"credits" bigint NOT NULL,
	"at" bigint NOT NULL,
	"count" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_weeks" (
	"account_id" text NOT NULL,
	"week_start" bigint NOT NULL,
	"credits" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_weeks_account_id_week_start_pk" PRIMARY KEY("account_id","week_start")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_account" ON "api_keys" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "cache_entries_created_at" ON "cache_entries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "cache_entries_accessed_at" ON "cache_entries" USING btree ("accessed_at","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "job_items_job_url" ON "job_items" USING btree ("job_id","url");--> statement-breakpoint
CREATE INDEX "job_items_job_state" ON "job_items" USING btree ("job_id","state","depth");--> statement-breakpoint
CREATE INDEX "jobs_account_created" ON "jobs" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "jobs_status" ON "jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "jobs_expires_at" ON "jobs" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "page_snapshots_page" ON "page_snapshots" USING btree ("account_id","url","tag","scraped_at");--> statement-breakpoint
CREATE INDEX "request_log_account_at" ON "request_log" USING btree ("account_id","at");--> statement-breakpoint
CREATE INDEX "request_log_key_at" ON "request_log" USING btree ("key_id","at");