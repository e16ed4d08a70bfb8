CREATE TABLE `watch_checks` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`watch_id` text NOT NULL,
	`checked_at` integer NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`fingerprint` text,
	`previous_fingerprint` text,
	`summary` text NOT NULL,
	`added_text` text NOT NULL,
	`removed_text` text NOT NULL,
	`diff` text,
	`status_code` integer,
	`error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `watch_checks_id_unique` ON `watch_checks` (`id`);--> statement-breakpoint
CREATE INDEX `watch_checks_watch` ON `watch_checks` (`watch_id`,`seq`);--> statement-breakpoint
CREATE TABLE `watches` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`url` text NOT NULL,
	`name` text,
	`status` text NOT NULL,
	`interval_minutes` integer NOT NULL,
	`options` text NOT NULL,
	`webhook` text,
	`last_fingerprint` text,
	`baseline` text,
	`last_checked_at` integer,
	`last_changed_at` integer,
	`last_error` text,
	`change_count` integer DEFAULT 0 NOT NULL,
	`check_count` integer DEFAULT 0 NOT NULL,
	`next_check_at` integer NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	`claim_token` text,
	`claimed_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `watches_account_created` ON `watches` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `watches_next_check` ON `watches` (`next_check_at`);