-- Search (docs/decisions/merchant-scale.md, "Search"): FTS5 indexes with the trigram tokenizer
-- (any substring of three characters or more, Arabic and Latin, case folded), external-content
-- tables that hold no copy of the text, kept by the triggers below inside the statement that
-- writes the payment or the link, on better-sqlite3 and D1 alike. A receipt id is found by an
-- exact match on its unique index instead (22 random characters would add 60 % to the index).
-- No CASE here: wrangler's statement splitter reads CASE as the start of a block.
CREATE VIRTUAL TABLE `payments_search` USING fts5(
  `customer_name`, `customer_phone`, `customer_email`, `order_number`, `cib_transaction_id`, `ref`,
  content='payments', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `payments_search_insert` AFTER INSERT ON `payments`
BEGIN
  INSERT INTO `payments_search` (rowid, `customer_name`, `customer_phone`, `customer_email`,
    `order_number`, `cib_transaction_id`, `ref`)
  VALUES (NEW.rowid, NEW.`customer_name`, NEW.`customer_phone`, NEW.`customer_email`,
    NEW.`order_number`, NEW.`cib_transaction_id`, NEW.`ref`);
END;
--> statement-breakpoint
-- An external-content index forgets a row by being told the values it was given: the old ones.
CREATE TRIGGER `payments_search_update` AFTER UPDATE OF `customer_name`, `customer_phone`,
  `customer_email`, `order_number`, `cib_transaction_id`, `ref` ON `payments`
WHEN OLD.`customer_name` IS NOT NEW.`customer_name` OR OLD.`customer_phone` IS NOT NEW.`customer_phone`
  OR OLD.`customer_email` IS NOT NEW.`customer_email` OR OLD.`order_number` IS NOT NEW.`order_number`
  OR OLD.`cib_transaction_id` IS NOT NEW.`cib_transaction_id` OR OLD.`ref` IS NOT NEW.`ref`
BEGIN
  INSERT INTO `payments_search` (`payments_search`, rowid, `customer_name`, `customer_phone`,
    `customer_email`, `order_number`, `cib_transaction_id`, `ref`)
  VALUES ('delete', OLD.rowid, OLD.`customer_name`, OLD.`customer_phone`, OLD.`customer_email`,
    OLD.`order_number`, OLD.`cib_transaction_id`, OLD.`ref`);
  INSERT INTO `payments_search` (rowid, `customer_name`, `customer_phone`, `customer_email`,
    `order_number`, `cib_transaction_id`, `ref`)
  VALUES (NEW.rowid, NEW.`customer_name`, NEW.`customer_phone`, NEW.`customer_email`,
    NEW.`order_number`, NEW.`cib_transaction_id`, NEW.`ref`);
END;
--> statement-breakpoint
CREATE TRIGGER `payments_search_delete` AFTER DELETE ON `payments`
BEGIN
  INSERT INTO `payments_search` (`payments_search`, rowid, `customer_name`, `customer_phone`,
    `customer_email`, `order_number`, `cib_transaction_id`, `ref`)
  VALUES ('delete', OLD.rowid, OLD.`customer_name`, OLD.`customer_phone`, OLD.`customer_email`,
    OLD.`order_number`, OLD.`cib_transaction_id`, OLD.`ref`);
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `links_search` USING fts5(
  `title`, content='links', tokenize='trigram'
);
--> statement-breakpoint
CREATE TRIGGER `links_search_insert` AFTER INSERT ON `links`
BEGIN
  INSERT INTO `links_search` (rowid, `title`) VALUES (NEW.rowid, NEW.`title`);
END;
--> statement-breakpoint
CREATE TRIGGER `links_search_update` AFTER UPDATE OF `title` ON `links`
WHEN OLD.`title` IS NOT NEW.`title`
BEGIN
  INSERT INTO `links_search` (`links_search`, rowid, `title`) VALUES ('delete', OLD.rowid, OLD.`title`);
  INSERT INTO `links_search` (rowid, `title`) VALUES (NEW.rowid, NEW.`title`);
END;
--> statement-breakpoint
CREATE TRIGGER `links_search_delete` AFTER DELETE ON `links`
BEGIN
  INSERT INTO `links_search` (`links_search`, rowid, `title`) VALUES ('delete', OLD.rowid, OLD.`title`);
END;
--> statement-breakpoint
-- The rows that exist, read from their tables (the triggers keep them from now on). The same
-- two statements rebuild an index that was left out of a copy of the database.
INSERT INTO `payments_search` (`payments_search`) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO `links_search` (`links_search`) VALUES ('rebuild');
