DROP INDEX `payments_status_created_at_idx`;--> statement-breakpoint
CREATE INDEX `payments_status_created_at_idx` ON `payments` (`status`,`created_at`,`id`,`failure_code`);