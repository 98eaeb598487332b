ALTER TABLE `links` ADD `source` text;--> statement-breakpoint
ALTER TABLE `links` ADD `created_by` text;--> statement-breakpoint
CREATE INDEX `links_source_created_at_idx` ON `links` (`source`,`created_at`);
