CREATE TABLE `cache_entries` (
	`key` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cache_entries_created_at` ON `cache_entries` (`created_at`);