-- The failure_code of payments settled before it was written: src/domain/failure-reasons.ts
-- `storedFailureCode` in SQL, over the stored resp_code, action_code and check answer
-- (test/domain/failure-reasons.test.ts runs both over the same rows). Payments settled since carry it already.
UPDATE `payments` SET `failure_code` = CASE
  WHEN `status` = 'error' THEN 'gateway_error'
  WHEN `status` = 'expired' THEN 'session_expired'
  WHEN `status` = 'canceled' THEN 'canceled_by_customer'
  WHEN `error_reason` IN ('check amount does not match the payment', 'check account does not match the payment') THEN 'gateway_error'
  WHEN `action_code` = '116' THEN 'insufficient_funds'
  WHEN `action_code` = '101' THEN 'expired_card'
  WHEN `action_code` = '100' THEN 'declined'
  WHEN `action_code` IN ('117', '-2005', '-2006', '151017') THEN 'authentication_failed'
  WHEN `action_code` = '10' THEN 'canceled_by_customer'
  WHEN `action_code` = '-2007' THEN 'session_expired'
  WHEN `action_code` IN ('907', '909', '910') THEN 'gateway_error'
  WHEN `resp_code` = '05' THEN 'declined'
  WHEN `resp_code` = '51' THEN 'insufficient_funds'
  WHEN `resp_code` IN ('54', '33') THEN 'expired_card'
  WHEN `resp_code` = '55' THEN 'authentication_failed'
  WHEN `resp_code` IN ('91', '96') THEN 'gateway_error'
  WHEN json_valid(`check_response`) AND json_extract(`check_response`, '$.errorCode') IN (7, '7') THEN 'gateway_error'
  WHEN (`action_code` GLOB '[1-9]*' AND `action_code` NOT GLOB '?*[^0-9]*')
    OR (`action_code` GLOB '-[1-9]*' AND substr(`action_code`, 2) NOT GLOB '*[^0-9]*')
    OR (`resp_code` IS NOT NULL AND `resp_code` NOT IN ('', '00'))
    OR (json_valid(`check_response`) AND json_extract(`check_response`, '$.orderStatus') IN (6, -1, '6', '-1'))
    OR (json_valid(`check_response`) AND json_extract(`check_response`, '$.errorCode') IN (2, '2'))
    THEN 'declined'
  ELSE 'unknown'
END
WHERE `failure_code` IS NULL AND `status` IN ('failed', 'canceled', 'expired', 'error');
