CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_id`,`at`);
