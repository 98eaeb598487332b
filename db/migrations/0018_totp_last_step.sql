ALTER TABLE `users` ADD `totp_last_step` integer;
