CREATE TABLE "watch_checks" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"watch_id" text NOT NULL,
	"checked_at" bigint NOT NULL,
	"trigger" text NOT NULL,
	"status" text NOT NULL,
	"fingerprint" text,
	"previous_fingerprint" text,
	"summary" text NOT NULL,
	"added_text" text NOT NULL,
	"removed_text" text NOT NULL,
	"diff" "bytea",
	"status_code" integer,
	"error" text,
	CONSTRAINT "watch_checks_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "watches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"url" text NOT NULL,
	"name" text,
	"status" text NOT NULL,
	"interval_minutes" integer NOT NULL,
	"options" text NOT NULL,
	"webhook" text,
	"last_fingerprint" text,
	"baseline" "bytea",
	"last_checked_at" bigint,
	"last_changed_at" bigint,
	"last_error" text,
	"change_count" integer DEFAULT 0 NOT NULL,
	"check_count" integer DEFAULT 0 NOT NULL,
	"next_check_at" bigint NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"claim_token" text,
	"claimed_until" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "watch_checks_watch" ON "watch_checks" USING btree ("watch_id","seq");--> statement-breakpoint
CREATE INDEX "watches_account_created" ON "watches" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "watches_next_check" ON "watches" USING btree ("next_check_at");