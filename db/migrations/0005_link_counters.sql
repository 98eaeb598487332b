ALTER TABLE `links` ADD `paid_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `paid_total` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `in_flight_count` integer DEFAULT 0 NOT NULL;