CREATE TABLE `deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`channel` text NOT NULL,
	`endpoint_id` text,
	`type` text NOT NULL,
	`payment_id` text,
	`link_id` text NOT NULL,
	`payment_event_id` integer,
	`occurred_at` integer NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`payload` text,
	`last_attempt_at` integer,
	`last_status` integer,
	`last_response` text,
	`last_duration_ms` integer,
	`last_error` text,
	`delivered_at` integer,
	`created_at` integer NOT NULL,
	CONSTRAINT "deliveries_state_known" CHECK("deliveries"."state" IN ('pending', 'delivered', 'failed')),
	CONSTRAINT "deliveries_channel_known" CHECK("deliveries"."channel" IN ('webhook', 'mail'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_event_id_unique` ON `deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `deliveries_due_idx` ON `deliveries` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `deliveries_endpoint_idx` ON `deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_endpoint_payment_idx` ON `deliveries` (`endpoint_id`,`payment_id`,`id`);--> statement-breakpoint
CREATE TABLE `delivery_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL,
	`at` integer NOT NULL,
	`status` integer,
	`response_excerpt` text,
	`duration_ms` integer NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_delivery_idx` ON `delivery_attempts` (`delivery_id`,`id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`description` text,
	`event_types` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`failing_since` integer
);
--> statement-breakpoint
-- The outbox is written by the statement that changes a payment (docs/decisions/outbound-webhooks.md):
-- each final status recorded in payment_events gives one delivery per enabled endpoint subscribed to
-- it. No CASE here (wrangler's statement splitter).
CREATE TRIGGER `deliveries_payment_event` AFTER INSERT ON `payment_events`
WHEN NEW.`to_status` IN ('paid', 'failed', 'canceled', 'expired')
BEGIN
  INSERT INTO `deliveries` (`event_id`, `channel`, `endpoint_id`, `type`, `payment_id`, `link_id`,
    `payment_event_id`, `occurred_at`, `next_attempt_at`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(16))), 'webhook', e.`id`, 'payment.' || NEW.`to_status`,
    NEW.`payment_id`, NEW.`link_id`, NEW.`id`, NEW.`at`, NEW.`at`, NEW.`at`
  FROM `webhook_endpoints` AS e
  WHERE e.`enabled` = 1
    AND EXISTS (SELECT 1 FROM json_each(e.`event_types`) WHERE value = 'payment.' || NEW.`to_status`)
  ORDER BY e.`created_at`, e.`id`;
END;
--> statement-breakpoint
-- Mail for a paid payment, when the start has said mail is configured (settings `mail_outbox` = on).
CREATE TRIGGER `deliveries_payment_mail` AFTER INSERT ON `payment_events`
WHEN NEW.`to_status` = 'paid'
BEGIN
  INSERT INTO `deliveries` (`event_id`, `channel`, `endpoint_id`, `type`, `payment_id`, `link_id`,
    `payment_event_id`, `occurred_at`, `next_attempt_at`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(16))), 'mail', NULL, 'payment.paid',
    NEW.`payment_id`, NEW.`link_id`, NEW.`id`, NEW.`at`, NEW.`at`, NEW.`at`
  FROM `settings` WHERE `key` = 'mail_outbox' AND `value` = 'on';
END;
--> statement-breakpoint
-- A link whose paid payments reach its max_payments (the counters' trigger moves paid_count inside
-- the payment's statement): one link.completed per subscribed endpoint, naming the payment that
-- completed it (the link's most recently updated paid payment) and taking its time.
CREATE TRIGGER `deliveries_link_completed` AFTER UPDATE OF `paid_count` ON `links`
WHEN NEW.`max_payments` IS NOT NULL AND OLD.`paid_count` < NEW.`max_payments`
  AND NEW.`paid_count` >= NEW.`max_payments`
BEGIN
  INSERT INTO `deliveries` (`event_id`, `channel`, `endpoint_id`, `type`, `payment_id`, `link_id`,
    `payment_event_id`, `occurred_at`, `next_attempt_at`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(16))), 'webhook', e.`id`, 'link.completed', p.`id`,
    NEW.`id`, NULL, p.`updated_at`, p.`updated_at`, p.`updated_at`
  FROM `webhook_endpoints` AS e,
    (SELECT `id`, `updated_at` FROM `payments` WHERE `link_id` = NEW.`id` AND `status` = 'paid'
      ORDER BY `updated_at` DESC, `rowid` DESC LIMIT 1) AS p
  WHERE e.`enabled` = 1
    AND EXISTS (SELECT 1 FROM json_each(e.`event_types`) WHERE value = 'link.completed')
  ORDER BY e.`created_at`, e.`id`;
END;
