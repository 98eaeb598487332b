CREATE TABLE `branding` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL,
	`merchant_name` text,
	`brand_color` text,
	`contact_phone` text,
	`contact_email` text,
	`contact_address` text,
	`terms_url` text,
	`terms_ar` text,
	`terms_fr` text,
	`terms_en` text,
	`default_language` text,
	`receipt_footer` text,
	`logo_hash` text,
	`logo_type` text,
	`logo_width` integer,
	`logo_height` integer,
	`updated_at` integer NOT NULL,
	CONSTRAINT "branding_one_row" CHECK("branding"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE `logo` (
	`sha256` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`updated_at` integer NOT NULL
);
