CREATE TABLE `payment_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`payment_id` text NOT NULL,
	`link_id` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`cause` text,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payment_events_payment_idx` ON `payment_events` (`payment_id`,`id`);--> statement-breakpoint
ALTER TABLE `payments` ADD `status_cause` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `failure_code` text;
--> statement-breakpoint
-- Each change of a payment's status is recorded by the statement that makes it (docs/decisions/payment-events.md).
CREATE TRIGGER `payment_events_insert` AFTER INSERT ON `payments`
BEGIN
  INSERT INTO `payment_events` (`payment_id`, `link_id`, `from_status`, `to_status`, `cause`, `at`)
  VALUES (NEW.`id`, NEW.`link_id`, NULL, NEW.`status`, NEW.`status_cause`, NEW.`created_at`);
END;
--> statement-breakpoint
CREATE TRIGGER `payment_events_update` AFTER UPDATE OF `status` ON `payments`
WHEN OLD.`status` IS NOT NEW.`status`
BEGIN
  INSERT INTO `payment_events` (`payment_id`, `link_id`, `from_status`, `to_status`, `cause`, `at`)
  VALUES (NEW.`id`, NEW.`link_id`, OLD.`status`, NEW.`status`, NEW.`status_cause`, NEW.`updated_at`);
END;
--> statement-breakpoint
-- Payments made before this migration: their creation and, when settled since, their present state
-- (the cause was not recorded then).
INSERT INTO `payment_events` (`payment_id`, `link_id`, `from_status`, `to_status`, `cause`, `at`)
SELECT `id`, `link_id`, NULL, 'initiated', 'checkout', `created_at` FROM `payments` ORDER BY `created_at`, `id`;
--> statement-breakpoint
INSERT INTO `payment_events` (`payment_id`, `link_id`, `from_status`, `to_status`, `cause`, `at`)
SELECT `id`, `link_id`, 'initiated', `status`, NULL, coalesce(`settled_at`, `updated_at`) FROM `payments`
WHERE `status` <> 'initiated' ORDER BY coalesce(`settled_at`, `updated_at`), `id`;
