CREATE TABLE `idempotency_keys` (
	`credential_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`body_sha256` text NOT NULL,
	`state` text NOT NULL,
	`attempt` text NOT NULL,
	`status` integer,
	`headers` text,
	`body` blob,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`credential_id`, `key`),
	CONSTRAINT "idempotency_keys_state_known" CHECK("idempotency_keys"."state" IN ('running', 'done'))
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_at_idx` ON `idempotency_keys` (`created_at`);