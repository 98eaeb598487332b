ALTER TABLE `links` ADD `metadata` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `metadata` text DEFAULT '{}' NOT NULL;