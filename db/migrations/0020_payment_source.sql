ALTER TABLE `payments` ADD `source` text DEFAULT 'dashboard' NOT NULL;--> statement-breakpoint
-- The payments made before the column: their link's source. The default already says `dashboard`
-- (as links older than links.source read), so only the api's and the till's links' payments are
-- rewritten, found through links_source_created_at_idx and then by link; no trigger watches it.
UPDATE `payments` SET `source` = (SELECT `links`.`source` FROM `links` WHERE `links`.`id` = `payments`.`link_id`)
WHERE `link_id` IN (SELECT `id` FROM `links` WHERE `source` IN ('api', 'till'));--> statement-breakpoint
CREATE INDEX `payments_source_created_at_idx` ON `payments` (`source`,`created_at`,`id`);
