/**
 * What the page walk fills a fresh Paylinks with, so every page shows its real content: people of
 * every role (one with two-factor on), links of each kind, payments in every state, a till sale
 * paid and its report, audit entries, API keys, a failing webhook endpoint, a logo and products.
 */

import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import {
  deliveries,
  type Link,
  links,
  PAYMENT_STATUSES,
  payments,
  products,
  promoCodes,
  type WebhookEndpoint,
  webhookEndpoints,
} from '../../db/schema.js'
import { createApiKey } from '../../src/auth/api-keys.js'
import type { Language } from '../../src/config.js'
import { recordAudit } from '../../src/data/audit.js'
import { replaceLogo } from '../../src/data/branding.js'
import { closeCheckout, createCheckout, getCheckoutById } from '../../src/data/checkouts.js'
import { createInvite } from '../../src/data/invites.js'
import { updateLink } from '../../src/data/links.js'
import { createProduct, setProductImage } from '../../src/data/products.js'
import { createPromoCode } from '../../src/data/promo-codes.js'
import { setSetting } from '../../src/data/settings.js'
import { CUSTOMER_FEE_PERCENT_KEY } from '../../src/domain/customer-fee.js'
import type { CustomField, LinkLineItem } from '../../src/domain/order.js'
import { createEndpoint } from '../../src/outbound-webhooks/endpoints.js'
import { recordAttempt } from '../../src/outbox/deliveries.js'
import { accept, invite, PASSWORD, secretOf, totp } from '../../test/auth/people-support.js'
import { startPendingPayment } from '../../test/browser/support.js'
import { csrfOf, signedIn, storePayment } from '../../test/dashboard/helpers.js'
import { AUDIT_SAMPLES } from '../../test/support/audit-samples.js'
import type { Paylinks } from '../../test/support/harness.js'
import { pngLogo } from '../../test/support/images.js'
import { storeLink } from '../../test/support/links.js'

export { PASSWORD }

export const PEOPLE = {
  owner: 'owner@boutique-exemple.dz',
  manager: 'manager@boutique-exemple.dz',
  cashier: 'cashier@boutique-exemple.dz',
  viewer: 'viewer@boutique-exemple.dz',
  /** An owner with two-factor on: signing in asks for the code. */
  secure: 'securite@boutique-exemple.dz',
} as const

/** A customer's links of one language (a link's pages speak its language). */
export interface CustomerLinks {
  fixed: Link
  open: Link
  items: Link
  inactive: Link
  expired: Link
  /** Its one payment paid: the "completed" page. */
  completed: Link
  /** A shop's open checkout: its order, lines, customer and the way back to the shop. */
  checkout: Link
  /** A link paid in parts, one part paid: total, paid so far, balance. */
  deposit: Link
  /** A link that asks the customer questions: a wilaya, an address, a size, a number, a note. */
  fields: Link
  /** A paid payment of that link with its answers (its receipt and its dashboard page). */
  answered: { id: string; receiptId: string }
  /** A cart: a product with a picture and a quantity to choose, a fixed line, one sold out. */
  cart: Link
}

export interface WalkData {
  links: Record<Language, CustomerLinks>
  /** The links the dashboard's detail pages show. */
  fixed: Link
  items: Link
  /** A declined payment with the gateway's message. */
  failed: { id: string }
  /** The paid payment of a shop's checkout (its page shows the checkout). */
  checkoutPayment: { id: string }
  endpoint: WebhookEndpoint
  tillSale: { id: string }
  /** Open invitations, one a language (an invitation is spent once accepted). */
  invites: Record<Language, string>
  /** A product with an image and a SKU, sold once (its page offers no deletion). */
  product: { id: string }
  /** A promo code with a limit partly used, and a link taking codes whose customer pays the fee. */
  promo: { code: { id: string }; link: Link }
}

export async function seed(p: Paylinks, languages: readonly Language[]): Promise<WalkData> {
  const now = () => p.deps.clock()
  const endpoint = await createEndpoint(
    p.deps.db,
    {
      url: 'https://erp.boutique-exemple.dz/paylinks/events',
      description: 'ERP',
      eventTypes: ['payment.paid', 'payment.failed', 'link.completed'],
      enabled: true,
    },
    now(),
  )
  const logo = pngLogo(240, 96)
  await replaceLogo(
    p.deps.db,
    {
      sha256: createHash('sha256').update(logo).digest('hex'),
      contentType: 'image/png',
      bytes: logo,
      width: 240,
      height: 96,
    },
    now(),
  )
  const byLanguage = {} as Record<Language, CustomerLinks>
  const cart = await cartProducts(p)
  for (const language of languages) byLanguage[language] = await customerLinks(p, language, cart)
  const { fixed, items } = byLanguage[languages.includes('fr') ? 'fr' : languages[0]!]

  const stored: Record<string, { id: string }> = {}
  for (const status of PAYMENT_STATUSES)
    stored[status] = await storePayment(p, fixed, { status, ref: `CMD-${status}` })
  const failed = stored.failed!
  await p.deps.db
    .update(payments)
    .set({
      failureCode: 'insufficient_funds',
      respCode: '51',
      checkResponse: { respCode_desc: 'Solde insuffisant' },
    })
    .where(eq(payments.id, failed.id))

  // A failing delivery to the endpoint, for its banner and attempts.
  const queued = await p.deps.db
    .select()
    .from(deliveries)
    .where(eq(deliveries.endpointId, endpoint.id))
  for (const delivery of queued)
    await recordAttempt(p.deps.db, delivery.id, {
      at: now(),
      status: 503,
      responseExcerpt: '<html><body>Service Unavailable</body></html>',
      durationMs: 812,
      error: null,
      delivered: false,
      nextAttemptAt: now() + 300_000,
    })
  await p.deps.db
    .update(webhookEndpoints)
    .set({ failingSince: now(), consecutiveFailures: 3 })
    .where(eq(webhookEndpoints.id, endpoint.id))

  await createApiKey(p.deps, {
    name: 'Boutique en ligne',
    scope: 'write',
    userId: null,
    createdBy: null,
  })
  for (const [action, sample] of Object.entries(AUDIT_SAMPLES))
    await recordAudit(p.deps.db, {
      at: now(),
      action: action as keyof typeof AUDIT_SAMPLES,
      actor: { kind: 'admin' },
      ...sample,
      address: '192.0.2.10',
    })

  // People: the admin token invites each; the cashier's till sale is paid.
  const admin = await signedIn(p)
  const names = {
    owner: 'Amina Benali',
    manager: 'Karim Haddad',
    cashier: 'سارة بن علي',
    viewer: 'Yacine Ould',
    secure: 'Nadia Saïdi',
  }
  for (const [key, email] of Object.entries(PEOPLE)) {
    const role = key === 'secure' ? 'owner' : key
    const { browser, response } = await accept(
      p,
      await invite(admin, email, role),
      names[key as keyof typeof names],
    )
    if (response.status !== 303) throw new Error(`Accepting ${email}: ${response.status}`)
    if (key === 'secure') {
      const page = await (await browser.get('/dashboard/account/two-factor')).text()
      const on = await browser.post('/dashboard/account/two-factor', {
        code: totp(secretOf(page), now()),
        _csrf: csrfOf(page),
      })
      if (on.status !== 200) throw new Error(`Two-factor set-up: ${on.status}`)
    }
    if (key === 'cashier') {
      const sale = await browser.submit('/dashboard/till', '/dashboard/till/sales', {
        amount: '1250',
        note: 'Table 4',
      })
      const at = new URL(sale.headers.get('location') ?? '', p.url).searchParams.get('sale')
      if (sale.status !== 303 || !at) throw new Error(`Till sale: ${sale.status}`)
      const [link] = await p.deps.db.select().from(links).where(eq(links.id, at))
      if (!link) throw new Error('Till sale link not found')
      const paid = await startPendingPayment(p, link.slug)
      await p.simulator.completePayment(paid.tx.cibTransactionId, 'approved')
      await p.settle()
    }
  }
  const invites = {} as Record<Language, string>
  for (const lang of languages)
    invites[lang] = (
      await createInvite(
        p.deps.db,
        { email: `nouveau.${lang}@boutique-exemple.dz`, role: 'manager', invitedBy: null },
        now(),
      )
    ).token
  const [tillSale] = await p.deps.db.select().from(links).where(eq(links.source, 'till'))
  if (!tillSale) throw new Error('No till sale')
  const checkoutPayment = await shopCheckouts(p)
  const product = await seedProducts(p)
  const promo = await seedPromoCodes(p)
  return {
    links: byLanguage,
    fixed,
    items,
    failed,
    checkoutPayment,
    endpoint,
    tillSale,
    invites,
    product,
    promo,
  }
}

/**
 * Promo codes: a percent code with a minimum, a limit partly used and an expiry, an amount code
 * switched off; a link taking codes whose customer pays a 2.5 % fee.
 */
async function seedPromoCodes(p: Paylinks): Promise<WalkData['promo']> {
  const now = p.deps.clock()
  const made = async (values: Parameters<typeof createPromoCode>[1]) => {
    const result = await createPromoCode(p.deps.db, values, now)
    if (!result.ok) throw new Error(`Promo code: ${result.kind}`)
    return result.promoCode
  }
  await made({
    code: 'BIENVENUE',
    percentOff: null,
    amountOff: 50_000,
    minAmount: null,
    maxRedemptions: null,
    expiresAt: null,
    active: false,
  })
  const code = await made({
    code: 'RAMADAN10',
    percentOff: 10,
    amountOff: null,
    minAmount: 200_000,
    maxRedemptions: 100,
    expiresAt: now + 30 * 86_400_000,
    active: true,
  })
  await p.deps.db
    .update(promoCodes)
    .set({ redeemedCount: 12, heldCount: 1 })
    .where(eq(promoCodes.id, code.id))
  await setSetting(p.deps.db, CUSTOMER_FEE_PERCENT_KEY, '250', now)
  const link = await storeLink(p, {
    language: 'fr',
    title: 'Atelier poterie — طاجين',
    amount: 450_000,
    allowPromoCodes: true,
    customerFee: true,
  })
  return { code, link }
}

/** The catalogue: a product with an image, a SKU and a sale; one archived; one without stock. */
async function seedProducts(p: Paylinks): Promise<{ id: string }> {
  const now = p.deps.clock()
  const made = async (values: Parameters<typeof createProduct>[1]) => {
    const result = await createProduct(p.deps.db, values, now)
    if (!result.ok) throw new Error(`Product: ${result.kind}`)
    return result.product
  }
  const tajine = await made({
    name: 'طاجين من الفخار — صناعة يدوية',
    description: 'Fait main à Nabeul, 30 cm',
    price: 250_000,
    stock: 12,
    sku: 'TAJ-30',
    active: true,
  })
  const photo = pngLogo(320, 240)
  await setProductImage(
    p.deps.db,
    tajine.id,
    {
      sha256: createHash('sha256').update(photo).digest('hex'),
      contentType: 'image/png',
      bytes: photo,
      width: 320,
      height: 240,
    },
    now,
  )
  await p.deps.db.update(products).set({ soldCount: 3 }).where(eq(products.id, tajine.id))
  await made({
    name: 'Miel de jujubier 500 g',
    description: null,
    price: 180_050,
    stock: 0,
    sku: 'MIEL-500',
    active: false,
  })
  await made({
    name: 'Cours particulier',
    description: null,
    price: 150_000,
    stock: null,
    sku: null,
    active: true,
  })
  return tajine
}

/** A shop's order of two lines, with its customer, in `language`. */
function shopOrder(p: Paylinks, language: Language, reference: string) {
  const now = p.deps.clock()
  return createCheckout(
    p.deps.db,
    {
      amount: 1_077_000,
      lineItems: [
        { name: 'Tapis berbère / زربية / Berber rug', quantity: 2, unitPrice: 488_500 },
        { name: 'Livraison / توصيل / Delivery', quantity: 1, unitPrice: 100_000 },
      ],
      reference,
      metadata: { cart: 'c_8812' },
      customerName: 'Amina Benali',
      customerPhone: '0550123456',
      customerEmail: 'amina.benali@example.dz',
      successUrl: 'https://boutique-exemple.dz/merci?commande=1042',
      cancelUrl: 'https://boutique-exemple.dz/panier',
      language,
      expiresAt: now + 30 * 60_000,
      title: 'Boutique Exemple',
    },
    now,
  )
}

/** The checkouts list's states: one paid (its payment returned), one expired, one canceled. */
async function shopCheckouts(p: Paylinks): Promise<{ id: string }> {
  const paid = await shopOrder(p, 'fr', 'CMD-2026-1039')
  const sold = await startPendingPayment(p, paid.link.slug)
  await p.simulator.completePayment(sold.tx.cibTransactionId, 'approved')
  await p.settle()
  const expired = await shopOrder(p, 'ar', 'CMD-2026-1040')
  await closeCheckout(p.deps.db, expired.checkout.id, 'expired', p.deps.clock())
  const canceled = await shopOrder(p, 'en', 'CMD-2026-1041')
  await closeCheckout(p.deps.db, canceled.checkout.id, 'canceled', p.deps.clock())
  const done = await getCheckoutById(p.deps.db, paid.checkout.id)
  if (!done?.paymentId) throw new Error('The paid checkout has no payment')
  return { id: done.paymentId }
}

const TITLES: Record<Language, [string, string, string]> = {
  ar: ['ورشة الفخار — يوم السبت', 'تبرع حر', 'فاتورة FA-2026-0042'],
  fr: ['Atelier poterie — samedi', 'Don libre', 'Facture FA-2026-0042'],
  en: ['Pottery workshop — Saturday', 'Open donation', 'Invoice FA-2026-0042'],
}

/** A cart's products: a rug with a picture (4 left), cushions (unlimited), a dish sold out. */
async function cartProducts(p: Paylinks): Promise<LinkLineItem[]> {
  const now = p.deps.clock()
  const made = async (values: Parameters<typeof createProduct>[1]) => {
    const result = await createProduct(p.deps.db, values, now)
    if (!result.ok) throw new Error(`Product: ${result.kind}`)
    return result.product
  }
  const rug = await made({
    name: 'Tapis berbère / زربية / Berber rug',
    description: null,
    price: 488_500,
    stock: 4,
    sku: 'TAP-1',
    active: true,
  })
  const photo = pngLogo(96, 96)
  await setProductImage(
    p.deps.db,
    rug.id,
    {
      sha256: createHash('sha256').update(photo).digest('hex'),
      contentType: 'image/png',
      bytes: photo,
      width: 96,
      height: 96,
    },
    now,
  )
  const cushion = await made({
    name: 'Coussin brodé / وسادة مطرزة',
    description: null,
    price: 150_000,
    stock: null,
    sku: null,
    active: true,
  })
  const dish = await made({
    name: 'Plat à couscous / قصعة',
    description: null,
    price: 320_000,
    stock: 0,
    sku: 'PLAT-40',
    active: true,
  })
  return [
    { productId: rug.id, quantity: 1, adjustable: { min: 1, max: 3 } },
    { productId: cushion.id, quantity: 2, adjustable: null },
    { productId: dish.id, quantity: 0, adjustable: { min: 0, max: 2 } },
  ]
}

async function customerLinks(
  p: Paylinks,
  language: Language,
  lines: LinkLineItem[],
): Promise<CustomerLinks> {
  const now = () => p.deps.clock()
  const [title, donation, invoice] = TITLES[language]
  const fixed = await storeLink(p, { language, title, amount: 350000 })
  const open = await storeLink(p, {
    language,
    title: donation,
    amount: null,
    amountMin: 10000,
    amountMax: 5000000,
  })
  const items = await storeLink(p, {
    language,
    title: invoice,
    amount: 750000,
    invoiceId: 'FA-2026-0042',
    invoiceItems: [
      { description: `${title} ×2`, quantity: 2, unitPrice: 250000 },
      { description: 'Livraison / توصيل / Delivery', quantity: 1, unitPrice: 250000 },
    ],
  })
  const inactive = await storeLink(p, { language, title, active: false })
  const expired = await storeLink(p, { language, title })
  await updateLink(p.deps.db, expired.id, { expiresAt: now() - 60_000 }, now())
  const completed = await storeLink(p, { language, title, maxPayments: 1 })
  const sold = await startPendingPayment(p, completed.slug)
  await p.simulator.completePayment(sold.tx.cibTransactionId, 'approved')
  await p.settle()
  const { link: checkout } = await shopOrder(p, language, `CMD-2026-1042-${language}`)
  const deposit = await storeLink(p, { language, title, amount: 1200000, partialMinAmount: 300000 })
  const part = await startPendingPayment(p, deposit.slug, { amount: '4500' })
  await p.simulator.completePayment(part.tx.cibTransactionId, 'approved')
  await p.settle()
  const fields = await storeLink(p, {
    language,
    title: FIELD_LABELS[language][0],
    amount: 250000,
    customFields: fieldsOf(FIELD_LABELS[language]),
  })
  const answered = await storePayment(p, fields, { status: 'paid' })
  await p.deps.db
    .update(payments)
    .set({
      customFields: { wilaya: '16', address: '12 rue Didouche Mourad\nAlger centre', size: 'M' },
    })
    .where(eq(payments.id, answered.id))
  // A cart's amount: the rug once and two cushions, at the prices above.
  const cart = await storeLink(p, { language, title, amount: 788_500, lineItems: lines })
  return {
    fixed,
    open,
    items,
    inactive,
    expired,
    completed,
    checkout,
    deposit,
    fields,
    answered,
    cart,
  }
}

// A shop's questions in the link's language: the title, then the labels of its five fields.
const FIELD_LABELS: Record<Language, [string, string, string, string, string, string]> = {
  ar: ['قميص القصبة', 'ولاية التوصيل', 'عنوان التوصيل', 'المقاس', 'عدد القطع', 'ملاحظة للبائع'],
  fr: [
    'T-shirt Casbah',
    'Wilaya de livraison',
    'Adresse de livraison',
    'Taille',
    'Nombre de pièces',
    'Note pour le vendeur',
  ],
  en: [
    'Casbah T-shirt',
    'Delivery wilaya',
    'Delivery address',
    'Size',
    'Number of pieces',
    'Note for the seller',
  ],
}

function fieldsOf([, wilaya, address, size, count, note]: (typeof FIELD_LABELS)[Language]) {
  return [
    { key: 'wilaya', label: wilaya, type: 'wilaya', options: null, required: true },
    { key: 'address', label: address, type: 'address', options: null, required: true },
    { key: 'size', label: size, type: 'select', options: ['S', 'M', 'L', 'XL'], required: true },
    { key: 'count', label: count, type: 'number', options: null, required: false },
    { key: 'note', label: note, type: 'text', options: null, required: false },
  ] satisfies CustomField[]
}
