ALTER TABLE `cache_entries` ADD `body` blob;--> statement-breakpoint
ALTER TABLE `cache_entries` ADD `size` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `cache_entries` ADD `accessed_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `cache_entries_accessed_at` ON `cache_entries` (`accessed_at`);
--> statement-breakpoint
DELETE FROM `cache_entries`;