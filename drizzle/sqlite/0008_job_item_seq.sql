ALTER TABLE `job_items` ADD `seq` integer;--> statement-breakpoint
UPDATE `job_items` SET `seq` = r.n FROM (SELECT `id`, row_number() OVER (PARTITION BY `job_id` ORDER BY `id`) AS n FROM `job_items` WHERE `state` != 'pending') AS r WHERE `job_items`.`id` = r.`id`;--> statement-breakpoint
CREATE UNIQUE INDEX `job_items_job_seq` ON `job_items` (`job_id`,`seq`);
