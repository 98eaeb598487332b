-- A link's counters (paid_count, paid_total, in_flight_count) follow its payments inside the
-- statement that writes the payment, on better-sqlite3 and D1 alike (docs/decisions/link-counters.md).
-- `initiated` and `pending` are IN_FLIGHT_STATUSES (src/domain/payment-state.ts). No CASE here:
-- wrangler's statement splitter reads CASE as the start of a block and loses count of the ENDs.
CREATE TRIGGER `payments_count_insert` AFTER INSERT ON `payments`
BEGIN
  UPDATE `links` SET
    `paid_count` = `paid_count` + (NEW.`status` = 'paid'),
    `paid_total` = `paid_total` + NEW.`amount` * (NEW.`status` = 'paid'),
    `in_flight_count` = `in_flight_count` + (NEW.`status` IN ('initiated', 'pending'))
  WHERE `id` = NEW.`link_id`;
END;
--> statement-breakpoint
-- Fires only for writes that name one of these columns and change it (a rescheduled check does not).
CREATE TRIGGER `payments_count_update` AFTER UPDATE OF `status`, `amount`, `link_id` ON `payments`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`amount` IS NOT NEW.`amount`
  OR OLD.`link_id` IS NOT NEW.`link_id`
BEGIN
  UPDATE `links` SET
    `paid_count` = `paid_count`
      + (`id` = NEW.`link_id` AND NEW.`status` = 'paid')
      - (`id` = OLD.`link_id` AND OLD.`status` = 'paid'),
    `paid_total` = `paid_total`
      + NEW.`amount` * (`id` = NEW.`link_id` AND NEW.`status` = 'paid')
      - OLD.`amount` * (`id` = OLD.`link_id` AND OLD.`status` = 'paid'),
    `in_flight_count` = `in_flight_count`
      + (`id` = NEW.`link_id` AND NEW.`status` IN ('initiated', 'pending'))
      - (`id` = OLD.`link_id` AND OLD.`status` IN ('initiated', 'pending'))
  WHERE `id` IN (OLD.`link_id`, NEW.`link_id`);
END;
--> statement-breakpoint
CREATE TRIGGER `payments_count_delete` AFTER DELETE ON `payments`
BEGIN
  UPDATE `links` SET
    `paid_count` = `paid_count` - (OLD.`status` = 'paid'),
    `paid_total` = `paid_total` - OLD.`amount` * (OLD.`status` = 'paid'),
    `in_flight_count` = `in_flight_count` - (OLD.`status` IN ('initiated', 'pending'))
  WHERE `id` = OLD.`link_id`;
END;
--> statement-breakpoint
-- The counters of the links that exist, from their payments (the triggers keep them from now on).
UPDATE `links` SET
  `paid_count` = (SELECT count(*) FROM `payments` AS p
    WHERE p.`link_id` = `links`.`id` AND p.`status` = 'paid'),
  `paid_total` = (SELECT coalesce(sum(p.`amount`), 0) FROM `payments` AS p
    WHERE p.`link_id` = `links`.`id` AND p.`status` = 'paid'),
  `in_flight_count` = (SELECT count(*) FROM `payments` AS p
    WHERE p.`link_id` = `links`.`id` AND p.`status` IN ('initiated', 'pending'));
