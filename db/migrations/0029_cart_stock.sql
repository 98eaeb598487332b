-- A cart's stock follows its payments inside the statement that writes the payment, on
-- better-sqlite3 and D1 alike, as the link counters do (0006_link_counter_triggers): a payment in
-- flight (`initiated`, `pending`) holds its lines' quantities (products.held_count); paid, it
-- takes them from the stock and counts them sold (sold_count); failed, canceled, expired or error,
-- it gives its hold back. A payment's lines are its `line_items` (SoldLineItem JSON: productId,
-- quantity), read with json_each. The INSERT that starts the payment sells only what is left
-- (stock − held_count, src/data/payment-reserve.ts). No CASE here (wrangler's statement splitter).
--
-- The stock is clamped at 0 (max(0, …); max() of a NULL stays NULL, the unlimited stock): a
-- payment confirmed paid after its hold was released (expired, then paid late: the money was
-- taken) still takes its units, even when they were sold again meanwhile.
CREATE TRIGGER `payments_cart_insert` AFTER INSERT ON `payments`
WHEN NEW.`line_items` IS NOT NULL
BEGIN
  UPDATE `products` SET
    `held_count` = `held_count` + (SELECT coalesce(sum(json_extract(l.`value`, '$.quantity')), 0)
      FROM json_each(NEW.`line_items`) AS l WHERE json_extract(l.`value`, '$.productId') = `products`.`id`)
      * (NEW.`status` IN ('initiated', 'pending')),
    `stock` = max(0, `stock` - (SELECT coalesce(sum(json_extract(l.`value`, '$.quantity')), 0)
      FROM json_each(NEW.`line_items`) AS l WHERE json_extract(l.`value`, '$.productId') = `products`.`id`)
      * (NEW.`status` = 'paid')),
    `sold_count` = `sold_count` + (SELECT coalesce(sum(json_extract(l.`value`, '$.quantity')), 0)
      FROM json_each(NEW.`line_items`) AS l WHERE json_extract(l.`value`, '$.productId') = `products`.`id`)
      * (NEW.`status` = 'paid')
  WHERE `id` IN (SELECT json_extract(`value`, '$.productId') FROM json_each(NEW.`line_items`));
END;
--> statement-breakpoint
-- Fires only when the status changes. In flight → paid: the hold is released and the units taken;
-- in flight → unsuccessful: the hold is released; unsuccessful → paid (a late confirmation): the
-- units are taken (there is no hold left to release); error → pending (an adopted payment,
-- src/data/payment-adopt.ts): held again. Nothing leaves paid.
CREATE TRIGGER `payments_cart_update` AFTER UPDATE OF `status` ON `payments`
WHEN OLD.`status` IS NOT NEW.`status` AND NEW.`line_items` IS NOT NULL
BEGIN
  UPDATE `products` SET
    `held_count` = `held_count` + (SELECT coalesce(sum(json_extract(l.`value`, '$.quantity')), 0)
      FROM json_each(NEW.`line_items`) AS l WHERE json_extract(l.`value`, '$.productId') = `products`.`id`)
      * ((NEW.`status` IN ('initiated', 'pending')) - (OLD.`status` IN ('initiated', 'pending'))),
    `stock` = max(0, `stock` - (SELECT coalesce(sum(json_extract(l.`value`, '$.quantity')), 0)
      FROM json_each(NEW.`line_items`) AS l WHERE json_extract(l.`value`, '$.productId') = `products`.`id`)
      * (NEW.`status` = 'paid' AND OLD.`status` <> 'paid')),
    `sold_count` = `sold_count` + (SELECT coalesce(sum(json_extract(l.`value`, '$.quantity')), 0)
      FROM json_each(NEW.`line_items`) AS l WHERE json_extract(l.`value`, '$.productId') = `products`.`id`)
      * (NEW.`status` = 'paid' AND OLD.`status` <> 'paid')
  WHERE `id` IN (SELECT json_extract(`value`, '$.productId') FROM json_each(NEW.`line_items`));
END;
--> statement-breakpoint
-- A payment removed while in flight gives its hold back (what it took stays taken).
CREATE TRIGGER `payments_cart_delete` AFTER DELETE ON `payments`
WHEN OLD.`line_items` IS NOT NULL AND OLD.`status` IN ('initiated', 'pending')
BEGIN
  UPDATE `products` SET
    `held_count` = `held_count` - (SELECT coalesce(sum(json_extract(l.`value`, '$.quantity')), 0)
      FROM json_each(OLD.`line_items`) AS l WHERE json_extract(l.`value`, '$.productId') = `products`.`id`)
  WHERE `id` IN (SELECT json_extract(`value`, '$.productId') FROM json_each(OLD.`line_items`));
END;
--> statement-breakpoint
-- A cart link's amount is its products' price × quantity at today's prices (the API's link object
-- and the dashboard show it): a price change reprices the links that sell the product, in the
-- statement that changes it. A payment is always priced again when made, never from this.
CREATE TRIGGER `products_price_cart_links` AFTER UPDATE OF `price` ON `products`
WHEN OLD.`price` IS NOT NEW.`price`
BEGIN
  UPDATE `links` SET `amount` = (SELECT coalesce(sum(p.`price` * json_extract(l.`value`, '$.quantity')), 0)
      FROM json_each(`links`.`line_items`) AS l
      JOIN `products` AS p ON p.`id` = json_extract(l.`value`, '$.productId'))
  WHERE `line_items` IS NOT NULL
    AND EXISTS (SELECT 1 FROM json_each(`links`.`line_items`)
      WHERE json_extract(`value`, '$.productId') = NEW.`id`);
END;
