/**
 * The dashboard's own words in English; French and Arabic are typed against this shape, so a
 * missing key fails the typecheck. Customer-page messages stay in src/i18n.
 */
import type { Language } from '../config.js'
import { ar } from './messages-ar.js'
import { fr } from './messages-fr.js'

export const en = {
  dir: 'ltr',
  testBanner: 'Test mode — no real money is moved',
  chooseLanguage: 'Language',
  dashboard: 'Dashboard',
  navMain: 'Dashboard',
  navLinks: 'Links',
  navPayments: 'Payments',
  navNewLink: 'New link',
  logout: 'Log out',
  none: '—',
  // Log in
  loginTitle: 'Sign in to the dashboard',
  loginToken: 'Admin token',
  loginHint: 'The ADMIN_TOKEN of this Paylinks (printed once when it first started).',
  loginSubmit: 'Sign in',
  loginWrong: 'This token is not right.',
  loginRateLimited: 'Too many wrong tokens. Sign-in is refused for now: try again in {minutes}.',
  loggedOut: 'You are logged out.',
  // Refusals
  forbiddenTitle: 'This form has expired',
  forbiddenText:
    'The form did not carry a valid security token, so nothing was changed. Reload the page and try again.',
  tooLargeTitle: 'Too much was sent',
  tooLargeText:
    'This form sent more than the dashboard takes, so nothing was changed. Go back, shorten the longest fields and try again.',
  backToLinks: 'Back to the links',
  notFoundTitle: 'Not found',
  linkNotFound: 'There is no such link.',
  // Links list
  linksTitle: 'Payment links',
  noLinks: 'No links yet. Create the first one.',
  colTitle: 'Title',
  colAmount: 'Amount',
  colStatus: 'Status',
  colPaid: 'Paid',
  colCollected: 'Collected',
  colCreated: 'Created',
  nextPage: 'Next page',
  firstPage: 'First page',
  amountRange: '{min} – {max}',
  amountFrom: 'from {min}',
  statusActive: 'Active',
  statusInactive: 'Inactive',
  statusExpired: 'Expired',
  statusCompleted: 'Completed',
  // Link form
  newLinkTitle: 'New payment link',
  editLinkTitle: 'Edit link',
  fieldTitle: 'Title',
  fieldDescription: 'Description',
  pricing: 'Price',
  pricingFixed: 'Fixed amount',
  pricingOpen: 'Open amount (the customer enters it)',
  pricingItems: 'Invoice items',
  fieldAmount: 'Amount (DA)',
  fieldInvoiceId: 'Existing gateway invoice id (optional)',
  fieldAmountMin: 'Minimum (DA, optional: 50 DA at least)',
  fieldAmountMax: 'Maximum (DA, optional)',
  fieldItems: 'Items, one per line: description | quantity | unit price',
  itemsHint: 'For example: Coffee beans 1 kg | 2 | 1800.00',
  sectionAvailability: 'Availability',
  fieldMaxPayments: 'Maximum number of paid payments (optional; 1 = single use)',
  fieldExpiresAt: 'Expires at (Algiers time, optional)',
  fieldLanguage: 'Language of the customer pages',
  fieldActive: 'Active: customers can pay',
  fieldInactiveMessage: 'Message shown while the link is inactive',
  sectionAfter: 'After payment',
  fieldMemo: 'Memo sent to the gateway (cut to 28 bytes)',
  fieldSuccessMessage: 'Message on the receipt',
  fieldSuccessUrl: 'Continue to this address (http:// or https://)',
  createLink: 'Create link',
  saveLink: 'Save changes',
  cancel: 'Cancel',
  fixErrors: 'Please correct the fields marked below. Nothing was saved.',
  gatewayError: 'The gateway did not create the invoice. Nothing was saved; try again.',
  // Link detail
  linkCreated: 'The link has been created.',
  linkSaved: 'Your changes are saved.',
  linkDeactivated: 'The link is now inactive: customers see its inactive message.',
  linkActivated: 'The link is active again.',
  linkDeleted: 'The link has been deleted.',
  cannotDelete: 'A link with payments cannot be deleted. Deactivate it instead.',
  publicUrl: 'Public address',
  copy: 'Copy',
  copied: 'Copied',
  qrCode: 'QR code',
  qrAlt: 'QR code of the link',
  downloadSvg: 'Download SVG',
  downloadPng: 'Download PNG',
  poster: 'Printable poster',
  edit: 'Edit',
  deactivate: 'Deactivate',
  activate: 'Activate',
  deleteLink: 'Delete',
  linkPayments: 'Payments of this link',
  detailInvoice: 'Gateway invoice',
  detailItems: 'Items',
  detailMaxPayments: 'Maximum paid payments',
  detailExpiresAt: 'Expires',
  detailLanguage: 'Customer page language',
  detailMemo: 'Memo',
  detailSuccessMessage: 'Receipt message',
  detailSuccessUrl: 'Continues to',
  detailInactiveMessage: 'Inactive message',
  detailItem: 'Item',
  itemQuantity: 'Qty',
  itemUnitPrice: 'Unit price',
  // Payments
  paymentsTitle: 'Payments',
  filterStatus: 'Status',
  filterLink: 'Link',
  filterFrom: 'From',
  filterTo: 'To',
  anyStatus: 'Any status',
  anyLink: 'All links',
  applyFilters: 'Filter',
  exportCsv: 'Export CSV',
  noPayments: 'No payments match these filters.',
  colCustomer: 'Customer',
  colOrder: 'Order number',
  colRef: 'Reference',
  receipt: 'Receipt',
  badFilter: 'This filter is not valid: {field}.',
  paymentInitiated: 'Started',
  paymentPending: 'Pending',
  paymentPaid: 'Paid',
  paymentFailed: 'Failed',
  paymentCanceled: 'Canceled',
  paymentExpired: 'Expired',
  paymentError: 'Gateway error',
  beyondMaxPayments: 'Beyond the link’s limit',
  beyondMaxPaymentsHint:
    'Paid after other payments had already reached the link’s maximum: the money was taken, so deliver or refund.',
  detailBeyondMaxPayments: 'Paid beyond the maximum',
  // Field errors
  errRequired: 'This field is required.',
  errMaxChars: 'At most {n} characters.',
  errAmountText: 'Enter an amount in DA with at most two decimals, e.g. 1500 or 1299.50.',
  errWhole: 'Enter a whole number.',
  errMinAmount: 'At least 50 DA.',
  errMaxAmount: 'At most 100 000 000 DA.',
  errAtLeast: 'At least {n}.',
  errAtMost: 'At most {n}.',
  errPositive: 'Must be more than 0 DA.',
  errUrl: 'Enter an address starting with http:// or https://.',
  errItemsNone: 'List at least one item.',
  errItemsMax: 'At most 50 items.',
  errItemLine: 'Line {line}: write description | quantity | unit price.',
  errLine: 'Line {line}: {message}',
  errMaxBelowMin: 'The maximum must not be less than the minimum.',
  errInvoiceAmount: 'Give the invoice total as the amount.',
  errPricing: 'Choose a price: a fixed amount, an open amount or invoice items.',
  errItemsTotalMin: 'The items must add up to at least 50 DA.',
  errItemsTotalMax: 'The items must add up to at most 100 000 000 DA.',
  errFuture: 'Must be in the future.',
  errDateTime: 'Enter a date and time, e.g. 2026-06-30 23:59.',
  errLanguage: 'Choose Arabic, French or English.',
  errText: 'Remove the invisible control characters or invalid characters from this field.',
  errOther: '{message}',
} as const

export type DashKey = keyof typeof en
export type DashMessages = { readonly [K in DashKey]: string }

/** A dashboard translator: `t('errAtMost', { n: 200 })`. */
export type DashTranslate = (key: DashKey, params?: Record<string, string | number>) => string

const MESSAGES: Record<Language, DashMessages> = { en, fr, ar }

/** The dashboard translator for a language; unknown `{placeholders}` are left as they are. */
export function dashTranslator(lang: Language): DashTranslate {
  const messages = MESSAGES[lang]
  return (key, params) => {
    const text = messages[key]
    if (!params) return text
    return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name in params ? String(params[name]) : whole,
    )
  }
}
