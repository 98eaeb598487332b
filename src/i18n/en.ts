/** English messages. The other languages are checked against this shape. */
import type { Messages as TableOf } from '../lib/translate.js'

export const en = {
  dir: 'ltr',
  languageName: 'English',
  currency: 'DA',
  testBanner: 'Test mode — no real money is moved',
  support: 'In case of a problem with your CIB card, call SATIM’s free number 3020',
  cardMethod: 'CIB / Edahabia card',
  chooseLanguage: 'Language',
  // Checkout
  amountToPay: 'Amount to pay',
  enterAmount: 'Amount (DA)',
  amountBetween: 'Between {min} and {max}',
  amountAtLeast: 'At least {min}',
  items: 'Items',
  item: 'Item',
  quantity: 'Qty',
  unitPrice: 'Unit price',
  total: 'Total',
  yourDetails: 'Your details',
  fullName: 'Full name',
  phone: 'Phone',
  email: 'E-mail',
  acceptTerms: 'I accept the {online} and the {merchant}.',
  onlineTerms: 'online payment terms',
  merchantTerms: 'merchant’s terms of sale',
  payWith: 'Pay {amount}',
  payHint: 'You will enter your card details on the card network’s secure page.',
  reference: 'Reference',
  // Validation
  referenceLine: 'Your reference: {ref}',
  fixErrors: 'Please correct the fields marked below.',
  errRequired: 'This field is required.',
  errName: 'Enter your full name (2 to 100 characters).',
  errPhone: 'Enter a valid phone number, e.g. 0550123456 or +213550123456.',
  errEmail: 'Enter a valid e-mail address.',
  errAmount: 'Enter an amount in DA with at most two decimals.',
  errAmountRange: 'The amount must be between {min} and {max}.',
  errAmountMin: 'The amount must be at least {min}.',
  errTerms: 'You must accept the terms to pay.',
  errText: 'This field contains invisible control characters or invalid characters; type it again.',
  errRefText:
    'This payment reference contains invalid characters. Ask the merchant for a correct link.',
  errForm: 'This form has expired. Please submit it again.',
  errCaptcha: 'The anti-robot check failed. Please try again.',
  errRateLimited: 'Too many attempts. Please wait a minute and try again.',
  captchaChecking: 'Checking that you are not a robot…',
  captchaDone: 'Check done. You can pay.',
  captchaFailed: 'The check could not be completed. Reload the page.',
  captchaNoScript: 'Please turn on JavaScript: a quick anti-robot check runs in your browser.',
  // Link states
  linkInactiveTitle: 'This payment link is not active',
  linkInactiveText: 'The merchant has turned this link off.',
  linkExpiredTitle: 'This payment link has expired',
  linkExpiredText: 'It can no longer be used to pay. Contact the merchant for a new link.',
  linkCompletedTitle: 'This payment link has been used',
  linkCompletedText: 'It has already received all the payments it accepts.',
  invoicePaidTitle: 'This invoice is already paid',
  invoicePaidText: 'It was paid on {date}. There is nothing more to pay.',
  inProgressTitle: 'A payment is in progress',
  inProgressText:
    'Someone is paying with this link right now. If that payment does not complete, the link will be available again. Please try again in {minutes}.',
  notFoundTitle: 'Page not found',
  notFoundText: 'This address does not lead to a payment link or a receipt.',
  serverErrorTitle: 'Something went wrong',
  serverErrorText:
    'This page could not be shown. The problem has been logged. Please try again in a moment.',
  serverErrorRef: 'Error reference: {ref}',
  tooLargeTitle: 'Too much was sent',
  tooLargeText:
    'This form sent more than it can take, so nothing was done. Go back, shorten what you typed and try again.',
  // Gateway trouble
  gatewayErrorTitle: 'The payment could not be started',
  gatewayErrorText:
    'The payment service did not answer as expected. No money has been taken. Please try again.',
  tryAgain: 'Try again',
  // Receipt
  receiptTitle: 'Payment successful',
  receiptThanks: 'Thank you. Keep this receipt.',
  orderId: 'Order ID',
  orderNumber: 'Order number',
  approvalCode: 'Approval code',
  dateTime: 'Date and time',
  amountPaid: 'Amount',
  paymentMethod: 'Payment method',
  merchant: 'Merchant',
  customer: 'Customer',
  print: 'Print',
  download: 'Download',
  continue: 'Continue',
  failedTitle: 'Payment not completed',
  failedText: 'Your payment was not accepted. No money has been taken.',
  canceledTitle: 'Payment cancelled',
  canceledText: 'You cancelled the payment. No money has been taken.',
  expiredTitle: 'Payment session expired',
  expiredText: 'The payment page was left open too long. No money has been taken.',
  pendingTitle: 'Confirming your payment',
  pendingText:
    'We are waiting for the card network’s confirmation. This page refreshes by itself; you can also refresh it.',
  refresh: 'Refresh',
  gatewayMessage: 'Message from the bank',
  // Terms
  termsTitle: 'Terms of payment',
  termsOnlineTitle: 'Online card payment',
  termsMerchantTitle: 'Merchant’s terms of sale',
  // Poster
  scanToPay: 'Scan to pay by card',
  qrLabel: 'QR code of the payment link',
  orOpen: 'or open',
  // Sharing a link: the message sent with it, the pay button, a PUBLIC_URL phones cannot reach
  shareText: '{title}: pay by card at',
  payByCard: 'Pay by card',
  localPublicUrl:
    'Customers’ phones cannot open this address ({host}): set PUBLIC_URL to the public https address of Paylinks.',
  // Receipt PDF and e-mail
  downloadPdf: 'Download PDF',
  // Decline reasons on the failure page (src/domain/failure-reasons.ts)
  failureReason: 'Reason',
  reasonInsufficientFunds: 'The card’s balance is not enough for this amount.',
  reasonExpiredCard: 'This card has expired. Please use another card.',
  reasonDeclined: 'Your bank declined the payment. Contact your bank or use another card.',
  reasonAuthenticationFailed:
    'The card could not be verified (secure code or PIN). Please try again.',
  reasonCanceledByCustomer: 'The payment was cancelled on the card page.',
  reasonSessionExpired: 'The card page was left open too long.',
  reasonGatewayError: 'The payment service could not process the payment. Please try again later.',
  reasonUnknown: 'The payment did not go through.',
  // Merchant settings: contact details, terms of sale, receipt footer
  contactTitle: 'Contact the merchant',
  contactPhone: 'Phone',
  contactEmail: 'E-mail',
  contactAddress: 'Address',
  termsMerchantLink: 'Read the merchant’s terms of sale',
} as const

export type MessageKey = keyof typeof en
export type Messages = TableOf<typeof en>
