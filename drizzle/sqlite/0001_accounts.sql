CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`tier` text NOT NULL,
	`extra_usage_enabled` integer DEFAULT false NOT NULL,
	`extra_balance_micros` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`prefix` text NOT NULL,
	`hash` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account` ON `api_keys` (`account_id`);--> statement-breakpoint
CREATE TABLE `request_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`key_id` text,
	`route` text NOT NULL,
	`status` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`credits` integer NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `request_log_account_at` ON `request_log` (`account_id`,`at`);--> statement-breakpoint
CREATE INDEX `request_log_key_at` ON `request_log` (`key_id`,`at`);--> statement-breakpoint
CREATE TABLE `usage_weeks` (
	`account_id` text NOT NULL,
	`week_start` integer NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `week_start`)
);
