CREATE TABLE `job_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` text NOT NULL,
	`url` text NOT NULL,
	`depth` integer DEFAULT 0 NOT NULL,
	`state` text NOT NULL,
	`data` text,
	`error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_items_job_url` ON `job_items` (`job_id`,`url`);--> statement-breakpoint
CREATE INDEX `job_items_job_state` ON `job_items` (`job_id`,`state`,`depth`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`account_id` text NOT NULL,
	`input` text NOT NULL,
	`webhook` text,
	`total` integer DEFAULT 0 NOT NULL,
	`completed` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`credits_used` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	`expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `jobs_account_created` ON `jobs` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_status` ON `jobs` (`status`);