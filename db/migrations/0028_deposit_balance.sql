-- Deposits: a link with partial_min_amount is paid in parts until paid in full. What counts toward
-- its price is a payment's part of it, `amount - fee` (= subtotal - discount: the customer's fee
-- is the gateway's cost passed on, never a part of the price), so `links.paid_total` now sums that
-- (the same as before for every payment without a fee), and `links.in_flight_total` sums it over
-- the initiated and pending payments: the INSERT that starts a payment on a deposit link holds
-- its part of the balance with `paid_total + in_flight_total + part <= amount`
-- (src/data/payment-reserve.ts). 0006's triggers are left as they are (the order in which a
-- payment's triggers fire decides the order of its outbound events): these three, beside them,
-- take each paid payment's fee back off `paid_total` and keep `in_flight_total`, in the same
-- statement that writes the payment (docs/decisions/link-counters.md).
-- A payment paid after its hold was released (expired, then paid late: the money was taken) counts
-- all the same: paid_total may then pass the amount, and the balance reads max(0, amount - paid_total).
-- No CASE here: wrangler's statement splitter reads CASE as the start of a block.
CREATE TRIGGER `payments_part_insert` AFTER INSERT ON `payments`
BEGIN
  UPDATE `links` SET
    `paid_total` = `paid_total` - NEW.`fee` * (NEW.`status` = 'paid'),
    `in_flight_total` = `in_flight_total`
      + (NEW.`amount` - NEW.`fee`) * (NEW.`status` IN ('initiated', 'pending'))
  WHERE `id` = NEW.`link_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `payments_part_update` AFTER UPDATE OF `status`, `amount`, `fee`, `link_id` ON `payments`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`amount` IS NOT NEW.`amount`
  OR OLD.`fee` IS NOT NEW.`fee` OR OLD.`link_id` IS NOT NEW.`link_id`
BEGIN
  UPDATE `links` SET
    `paid_total` = `paid_total`
      - NEW.`fee` * (`id` = NEW.`link_id` AND NEW.`status` = 'paid')
      + OLD.`fee` * (`id` = OLD.`link_id` AND OLD.`status` = 'paid'),
    `in_flight_total` = `in_flight_total`
      + (NEW.`amount` - NEW.`fee`) * (`id` = NEW.`link_id` AND NEW.`status` IN ('initiated', 'pending'))
      - (OLD.`amount` - OLD.`fee`) * (`id` = OLD.`link_id` AND OLD.`status` IN ('initiated', 'pending'))
  WHERE `id` IN (OLD.`link_id`, NEW.`link_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `payments_part_delete` AFTER DELETE ON `payments`
BEGIN
  UPDATE `links` SET
    `paid_total` = `paid_total` + OLD.`fee` * (OLD.`status` = 'paid'),
    `in_flight_total` = `in_flight_total`
      - (OLD.`amount` - OLD.`fee`) * (OLD.`status` IN ('initiated', 'pending'))
  WHERE `id` = OLD.`link_id`;
END;
--> statement-breakpoint
-- A deposit link is completed when what was paid toward it reaches its amount (it has no
-- max_payments, so 0025's trigger never fires for it): link.completed, in the statement that makes
-- the last part paid, naming that payment. 0006's trigger adds a paid payment's whole amount and
-- the one above takes its fee back off, in two UPDATEs of the link: the parts of the paid
-- payments, summed, confirm the amount is reached, whichever of the two runs first.
CREATE TRIGGER `deliveries_deposit_link_completed` AFTER UPDATE OF `paid_total` ON `links`
WHEN NEW.`partial_min_amount` IS NOT NULL AND NEW.`amount` IS NOT NULL
  AND OLD.`paid_total` < NEW.`amount` AND NEW.`paid_total` >= NEW.`amount`
  AND coalesce(NEW.`source`, 'dashboard') <> 'checkout'
  AND (SELECT coalesce(sum(`amount` - `fee`), 0) FROM `payments`
    WHERE `link_id` = NEW.`id` AND `status` = 'paid') >= NEW.`amount`
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
--> statement-breakpoint
-- The sums of the links that exist, from their payments (the triggers keep them from now on).
UPDATE `links` SET
  `paid_total` = (SELECT coalesce(sum(p.`amount` - p.`fee`), 0) FROM `payments` AS p
    WHERE p.`link_id` = `links`.`id` AND p.`status` = 'paid'),
  `in_flight_total` = (SELECT coalesce(sum(p.`amount` - p.`fee`), 0) FROM `payments` AS p
    WHERE p.`link_id` = `links`.`id` AND p.`status` IN ('initiated', 'pending'));
