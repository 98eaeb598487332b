CREATE TABLE `spent_tokens` (
	`key` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spent_tokens_expires_at_idx` ON `spent_tokens` (`expires_at`);