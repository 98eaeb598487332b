CREATE TABLE `promo_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`percent_off` integer,
	`amount_off` integer,
	`min_amount` integer,
	`max_redemptions` integer,
	`expires_at` integer,
	`active` integer DEFAULT true NOT NULL,
	`redeemed_count` integer DEFAULT 0 NOT NULL,
	`held_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "promo_codes_one_kind" CHECK(("promo_codes"."percent_off" IS NULL) <> ("promo_codes"."amount_off" IS NULL)),
	CONSTRAINT "promo_codes_percent_range" CHECK("promo_codes"."percent_off" IS NULL OR ("promo_codes"."percent_off" BETWEEN 1 AND 100)),
	CONSTRAINT "promo_codes_amount_positive" CHECK("promo_codes"."amount_off" IS NULL OR "promo_codes"."amount_off" > 0),
	CONSTRAINT "promo_codes_counts_not_negative" CHECK("promo_codes"."redeemed_count" >= 0 AND "promo_codes"."held_count" >= 0)
);
--> statement-breakpoint
CREATE INDEX `promo_codes_created_at_idx` ON `promo_codes` (`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_code_unique` ON `promo_codes` (lower("code"));--> statement-breakpoint
ALTER TABLE `links` ADD `line_items` text;--> statement-breakpoint
ALTER TABLE `links` ADD `custom_fields` text;--> statement-breakpoint
ALTER TABLE `links` ADD `allow_promo_codes` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `customer_fee` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `links` ADD `partial_min_amount` integer;--> statement-breakpoint
ALTER TABLE `links` ADD `in_flight_total` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `subtotal` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `discount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `fee` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `promo_code` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `promo_code_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `line_items` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `custom_fields` text;--> statement-breakpoint
ALTER TABLE `products` ADD `held_count` integer DEFAULT 0 NOT NULL;