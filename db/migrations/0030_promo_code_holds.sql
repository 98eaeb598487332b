-- A promo code's redemptions follow its payments inside the statement that writes the payment, as
-- a link's counters do (0006_link_counter_triggers), on better-sqlite3 and D1 alike. The INSERT
-- that starts a payment holds one redemption only while the code has one left (payment-reserve.ts:
-- redeemed_count + held_count < max_redemptions); `held_count` counts the code's `initiated` and
-- `pending` payments (IN_FLIGHT_STATUSES), `redeemed_count` its paid ones. No CASE (wrangler's
-- statement splitter reads it as a block). max(0, …): a hold is never released below none, so a
-- row written before these triggers can never make a payment's change fail the table's CHECK.
CREATE TRIGGER `payments_promo_insert` AFTER INSERT ON `payments`
WHEN NEW.`promo_code_id` IS NOT NULL
BEGIN
  UPDATE `promo_codes` SET
    `held_count` = `held_count` + (NEW.`status` IN ('initiated', 'pending')),
    `redeemed_count` = `redeemed_count` + (NEW.`status` = 'paid')
  WHERE `id` = NEW.`promo_code_id`;
END;
--> statement-breakpoint
-- In flight → paid: the hold becomes a redemption. In flight → failed, canceled, expired or error:
-- the hold is released. A payment paid late, after its hold was released (expired, then the
-- card's outcome said paid): a redemption is counted all the same, even past max_redemptions,
-- because the customer's money was taken with the discount; the limit only stops new payments.
-- A redemption is never taken back (a paid payment that changes status later was still sold).
CREATE TRIGGER `payments_promo_update` AFTER UPDATE OF `status` ON `payments`
WHEN NEW.`promo_code_id` IS NOT NULL AND OLD.`status` IS NOT NEW.`status`
BEGIN
  UPDATE `promo_codes` SET
    `held_count` = max(0, `held_count`
      + (NEW.`status` IN ('initiated', 'pending'))
      - (OLD.`status` IN ('initiated', 'pending'))),
    `redeemed_count` = `redeemed_count` + (NEW.`status` = 'paid' AND OLD.`status` IS NOT 'paid')
  WHERE `id` = NEW.`promo_code_id`;
END;
--> statement-breakpoint
-- A payment removed (a test's clean-up, never the app) lets its hold go.
CREATE TRIGGER `payments_promo_delete` AFTER DELETE ON `payments`
WHEN OLD.`promo_code_id` IS NOT NULL
BEGIN
  UPDATE `promo_codes` SET
    `held_count` = max(0, `held_count` - (OLD.`status` IN ('initiated', 'pending')))
  WHERE `id` = OLD.`promo_code_id`;
END;
