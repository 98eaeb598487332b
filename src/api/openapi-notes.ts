/**
 * What the fields mean, for people reading the document: added to the generated schemas where
 * the zod schema carries no description of its own (the rules themselves come from zod).
 */

const LINK_FIELDS: Record<string, string> = {
  title: 'Shown to the customer on the checkout page, the receipt and the poster.',
  description: 'A longer text under the title.',
  amount: 'A fixed amount in DZD (with `invoice_id`: the invoice total).',
  amount_min: 'Open amount: the least the customer may pay (default and floor: 50 DZD).',
  amount_max: 'Open amount: the most the customer may pay (none: no ceiling).',
  invoice_id: 'An existing gateway invoice the payment settles.',
  invoice_items:
    'Lines of an invoice; Paylinks creates the gateway invoice, and the amount is their total.',
  max_payments: 'How many paid payments the link takes (1 = single use; none = no limit).',
  expires_at: 'After this instant the link takes no new payment.',
  language: 'The language of the customer pages (ar is right-to-left); default `DEFAULT_LANGUAGE`.',
  memo: 'A note sent to the gateway with each payment (cut to 28 bytes there).',
  success_message: 'Shown on the receipt after a successful payment.',
  success_url: 'Where the receipt leads on to after a successful payment.',
  active: 'The merchant’s on/off switch; an inactive link shows `inactive_message`.',
  inactive_message: 'Shown to a customer who opens the link while it is switched off.',
}

/** Field notes by component schema name. */
export const FIELD_NOTES: Record<string, Record<string, string>> = {
  CreateLinkBody: {
    ...LINK_FIELDS,
    max_payments:
      'How many paid payments the link takes (1 = single use; `null` = no limit). Default: 1 for an invoice link (`invoice_id` or `invoice_items`), so an invoice is paid once; no limit for other links. Send a number or `null` for an invoice link that takes more.',
  },
  UpdateLinkBody: LINK_FIELDS,
  Link: {
    ...LINK_FIELDS,
    id: 'The link’s id (`lnk_…`), for this API.',
    slug: 'The unguessable part of the customer URL.',
    url: 'The customer URL to share.',
    qr_svg_url: 'A QR code of `url`, as SVG.',
    qr_png_url: 'A QR code of `url`, as PNG.',
    poster_url: 'A printable poster with the title, amount and QR code.',
    status:
      '`active`; `inactive` (switched off); `expired` (past `expires_at`); `completed` (`max_payments` paid, or a deposit link paid in full).',
    paid_count: 'How many payments on the link are paid.',
    paid_total: 'Their total in DZD toward the amount (a customer-paid fee is not counted).',
    balance:
      'What remains to pay: `amount_due − paid_total`, never below 0. A deposit link (`allow_partial`) is completed when it reaches 0.',
  },
  Payment: {
    id: 'The payment’s id (`pay_…`).',
    link_id: 'The link it was made on.',
    status:
      '`initiated` → `pending` (on the card page) → `paid`, `failed`, `canceled` or `expired`; `error` when the gateway refused or could not be reached.',
    customer: 'What the customer typed on the checkout page.',
    ref: 'The merchant’s own reference: a checkout’s `reference`, else `?ref=` on the link URL.',
    order_number: 'The card network’s order number, shown on the receipt.',
    transaction_id: 'The gateway’s transaction id.',
    cib_transaction_id: 'The card network’s transaction id.',
    approval_code: 'The bank’s approval code of a paid payment.',
    receipt_url: 'The customer’s receipt page.',
    paid_at: 'When the payment was confirmed paid.',
    beyond_max_payments:
      'True when the payment was confirmed paid after other paid payments had already filled the link’s `max_payments` (its place had been given back, e.g. it had expired): the money was taken, so honour or refund it.',
  },
}
