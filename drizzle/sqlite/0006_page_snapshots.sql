CREATE TABLE `page_snapshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`url` text NOT NULL,
	`tag` text DEFAULT '' NOT NULL,
	`markdown` text NOT NULL,
	`status_code` integer NOT NULL,
	`scraped_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `page_snapshots_page` ON `page_snapshots` (`account_id`,`url`,`tag`,`scraped_at`);