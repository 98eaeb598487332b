CREATE TABLE `links` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`amount` integer,
	`amount_min` integer,
	`amount_max` integer,
	`invoice_id` text,
	`invoice_items` text,
	`max_payments` integer,
	`expires_at` integer,
	`language` text NOT NULL,
	`memo` text,
	`success_message` text,
	`success_url` text,
	`active` integer DEFAULT true NOT NULL,
	`inactive_message` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "links_max_payments_positive" CHECK("links"."max_payments" IS NULL OR "links"."max_payments" > 0),
	CONSTRAINT "links_amount_positive" CHECK("links"."amount" IS NULL OR "links"."amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `links_slug_unique` ON `links` (`slug`);--> statement-breakpoint
CREATE INDEX `links_created_at_idx` ON `links` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`receipt_id` text NOT NULL,
	`link_id` text NOT NULL,
	`status` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text DEFAULT '012' NOT NULL,
	`customer_name` text NOT NULL,
	`customer_phone` text NOT NULL,
	`customer_email` text NOT NULL,
	`ref` text,
	`language` text NOT NULL,
	`invoice_id` text,
	`order_number` text,
	`transaction_id` text,
	`cib_transaction_id` text,
	`payment_url` text,
	`approval_code` text,
	`message` text,
	`resp_code` text,
	`action_code` text,
	`error_reason` text,
	`gateway_response` text,
	`check_response` text,
	`check_attempts` integer DEFAULT 0 NOT NULL,
	`next_check_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`paid_at` integer,
	`settled_at` integer,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "payments_amount_positive" CHECK("payments"."amount" > 0),
	CONSTRAINT "payments_status_known" CHECK("payments"."status" IN ('initiated', 'pending', 'paid', 'failed', 'canceled', 'expired', 'error'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_receipt_id_unique` ON `payments` (`receipt_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_cib_transaction_id_unique` ON `payments` (`cib_transaction_id`);--> statement-breakpoint
CREATE INDEX `payments_link_status_idx` ON `payments` (`link_id`,`status`);--> statement-breakpoint
CREATE INDEX `payments_status_next_check_idx` ON `payments` (`status`,`next_check_at`);--> statement-breakpoint
CREATE INDEX `payments_created_at_idx` ON `payments` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`dedupe_key` text NOT NULL,
	`cib_transaction_id` text,
	`payment_status` text,
	`payment_id` text,
	`payload` text NOT NULL,
	`received_at` integer NOT NULL,
	`processed_at` integer,
	`status` text DEFAULT 'received' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	CONSTRAINT "webhook_events_status_known" CHECK("webhook_events"."status" IN ('received', 'processed', 'ignored', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_events_dedupe_key_unique` ON `webhook_events` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `webhook_events_cib_transaction_idx` ON `webhook_events` (`cib_transaction_id`);