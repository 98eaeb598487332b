CREATE TABLE `product_images` (
	`sha256` text PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `products` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`price` integer NOT NULL,
	`stock` integer,
	`sku` text,
	`active` integer DEFAULT true NOT NULL,
	`image_hash` text,
	`image_type` text,
	`image_width` integer,
	`image_height` integer,
	`sold_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "products_price_positive" CHECK("products"."price" > 0),
	CONSTRAINT "products_stock_not_negative" CHECK("products"."stock" IS NULL OR "products"."stock" >= 0),
	CONSTRAINT "products_sold_count_not_negative" CHECK("products"."sold_count" >= 0)
);
--> statement-breakpoint
CREATE INDEX `products_created_at_idx` ON `products` (`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `products_sku_unique` ON `products` (lower("sku"));--> statement-breakpoint
CREATE INDEX `products_image_hash_idx` ON `products` (`image_hash`);