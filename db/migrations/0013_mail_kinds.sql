ALTER TABLE `deliveries` ADD `mail_kind` text;--> statement-breakpoint
-- One mail row per e-mail, so a retry resends only the one that failed: the receipt to the
-- customer, and the merchant's notice when the start wrote `mail_notices` = each. Both only while
-- the start says mail is sent (`mail_outbox` = on). No CASE here (wrangler's statement splitter).
DROP TRIGGER IF EXISTS `deliveries_payment_mail`;
--> statement-breakpoint
CREATE TRIGGER `deliveries_payment_mail` AFTER INSERT ON `payment_events`
WHEN NEW.`to_status` = 'paid'
BEGIN
  INSERT INTO `deliveries` (`event_id`, `channel`, `endpoint_id`, `type`, `payment_id`, `link_id`,
    `payment_event_id`, `occurred_at`, `next_attempt_at`, `created_at`, `mail_kind`)
  SELECT 'msg_' || lower(hex(randomblob(16))), 'mail', NULL, 'payment.paid',
    NEW.`payment_id`, NEW.`link_id`, NEW.`id`, NEW.`at`, NEW.`at`, NEW.`at`, 'customer_receipt'
  FROM `settings` WHERE `key` = 'mail_outbox' AND `value` = 'on';
  INSERT INTO `deliveries` (`event_id`, `channel`, `endpoint_id`, `type`, `payment_id`, `link_id`,
    `payment_event_id`, `occurred_at`, `next_attempt_at`, `created_at`, `mail_kind`)
  SELECT 'msg_' || lower(hex(randomblob(16))), 'mail', NULL, 'payment.paid',
    NEW.`payment_id`, NEW.`link_id`, NEW.`id`, NEW.`at`, NEW.`at`, NEW.`at`, 'merchant_notice'
  FROM `settings` AS s WHERE s.`key` = 'mail_notices' AND s.`value` = 'each'
    AND EXISTS (SELECT 1 FROM `settings` WHERE `key` = 'mail_outbox' AND `value` = 'on');
END;
