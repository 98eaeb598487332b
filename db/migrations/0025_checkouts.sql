CREATE TABLE `checkouts` (
	`id` text PRIMARY KEY NOT NULL,
	`link_id` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`reference` text,
	`amount` integer NOT NULL,
	`line_items` text,
	`customer_name` text,
	`customer_phone` text,
	`customer_email` text,
	`success_url` text NOT NULL,
	`cancel_url` text,
	`expires_at` integer NOT NULL,
	`payment_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`link_id`) REFERENCES `links`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "checkouts_status_known" CHECK("checkouts"."status" IN ('open', 'completed', 'expired', 'canceled')),
	CONSTRAINT "checkouts_amount_positive" CHECK("checkouts"."amount" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `checkouts_link_id_unique` ON `checkouts` (`link_id`);--> statement-breakpoint
CREATE INDEX `checkouts_created_at_idx` ON `checkouts` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `checkouts_status_created_at_idx` ON `checkouts` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `checkouts_reference_idx` ON `checkouts` (`reference`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `checkouts_status_expires_at_idx` ON `checkouts` (`status`,`expires_at`);--> statement-breakpoint
ALTER TABLE `payments` ADD `checkout_id` text;--> statement-breakpoint
-- A checkout's link reaching its one paid payment completes the checkout, in the statement that
-- makes the payment paid (the counters' trigger moves paid_count inside it), naming that payment.
-- A checkout that had expired or been canceled is completed all the same: the money was taken, so
-- the shop must hear of it. No CASE here (wrangler's statement splitter).
CREATE TRIGGER `checkouts_complete` AFTER UPDATE OF `paid_count` ON `links`
WHEN NEW.`source` = 'checkout' AND NEW.`paid_count` > OLD.`paid_count`
BEGIN
  UPDATE `checkouts` SET `status` = 'completed',
    `payment_id` = (SELECT `id` FROM `payments` WHERE `link_id` = NEW.`id` AND `status` = 'paid'
      ORDER BY `updated_at` DESC, `rowid` DESC LIMIT 1),
    `completed_at` = (SELECT `updated_at` FROM `payments` WHERE `link_id` = NEW.`id` AND `status` = 'paid'
      ORDER BY `updated_at` DESC, `rowid` DESC LIMIT 1),
    `updated_at` = (SELECT `updated_at` FROM `payments` WHERE `link_id` = NEW.`id` AND `status` = 'paid'
      ORDER BY `updated_at` DESC, `rowid` DESC LIMIT 1)
  WHERE `link_id` = NEW.`id` AND `status` <> 'completed';
END;
--> statement-breakpoint
-- An expired checkout's link expires with it (an expiry asked for before its time included), a
-- canceled one's is switched off: no payment starts on it after the UPDATE that closes it.
CREATE TRIGGER `checkouts_expire_link` AFTER UPDATE OF `status` ON `checkouts`
WHEN NEW.`status` = 'expired' AND OLD.`status` = 'open'
BEGIN
  UPDATE `links` SET `expires_at` = min(coalesce(`expires_at`, NEW.`updated_at`), NEW.`updated_at`),
    `updated_at` = NEW.`updated_at`
  WHERE `id` = NEW.`link_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `checkouts_cancel_link` AFTER UPDATE OF `status` ON `checkouts`
WHEN NEW.`status` = 'canceled' AND OLD.`status` = 'open'
BEGIN
  UPDATE `links` SET `active` = 0, `updated_at` = NEW.`updated_at` WHERE `id` = NEW.`link_id`;
END;
--> statement-breakpoint
-- checkout.completed and checkout.expired: one delivery per subscribed endpoint, written by the
-- UPDATE that changes the checkout's status (docs/decisions/outbound-webhooks.md).
CREATE TRIGGER `deliveries_checkout_event` AFTER UPDATE OF `status` ON `checkouts`
WHEN NEW.`status` IN ('completed', 'expired') AND OLD.`status` <> NEW.`status`
BEGIN
  INSERT INTO `deliveries` (`event_id`, `channel`, `endpoint_id`, `type`, `payment_id`, `link_id`,
    `payment_event_id`, `occurred_at`, `next_attempt_at`, `created_at`)
  SELECT 'msg_' || lower(hex(randomblob(16))), 'webhook', e.`id`, 'checkout.' || NEW.`status`,
    NEW.`payment_id`, NEW.`link_id`, NULL, NEW.`updated_at`, NEW.`updated_at`, NEW.`updated_at`
  FROM `webhook_endpoints` AS e
  WHERE e.`enabled` = 1
    AND EXISTS (SELECT 1 FROM json_each(e.`event_types`) WHERE value = 'checkout.' || NEW.`status`)
  ORDER BY e.`created_at`, e.`id`;
END;
--> statement-breakpoint
-- A checkout's link is the checkout's means, not a link the merchant made: its one paid payment is
-- announced as checkout.completed, not also as link.completed (0012's trigger, remade with it).
DROP TRIGGER IF EXISTS `deliveries_link_completed`;
--> statement-breakpoint
CREATE TRIGGER `deliveries_link_completed` AFTER UPDATE OF `paid_count` ON `links`
WHEN NEW.`max_payments` IS NOT NULL AND OLD.`paid_count` < NEW.`max_payments`
  AND NEW.`paid_count` >= NEW.`max_payments` AND coalesce(NEW.`source`, 'dashboard') <> 'checkout'
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
