/**
 * A small shop selling through Paylinks: `node examples/shop/server.mjs` (see README.md beside
 * it). The cart lives in the shop's SQLite file under a cookie; "Pay" turns it into an order and
 * sends the customer to a Paylinks checkout; the order becomes paid only when Paylinks' signed
 * `checkout.completed` event arrives at POST /paylinks/events — never because a browser came back
 * to /thanks, which anyone can type.
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { findProduct } from './catalogue.mjs'
import { checkoutForOrder, connect, retrieveCheckout, verifyEvent } from './checkout.mjs'
import { openShopDatabase } from './db.mjs'
import { cartPage, homePage, LANGUAGES, messagePage, texts, thanksPage } from './pages.mjs'

const config = readConfig(process.env)
const db = openShopDatabase(config.database)
const paylinks = connect({ url: config.paylinksUrl, apiKey: config.apiKey })

const FORM_LIMIT = 4 * 1024
/** Paylinks' events are a few kilobytes; anything much larger is not one of them. */
const EVENT_LIMIT = 512 * 1024
const CART_COOKIE = 'shop_cart'
const LANG_COOKIE = 'shop_lang'
const ID = /^[A-Za-z0-9_-]{16,64}$/
const CHECKOUT_ID = /^chk_[A-Za-z0-9]{8,64}$/

function readConfig(env) {
  const missing = ['PAYLINKS_API_KEY', 'PAYLINKS_WEBHOOK_SECRET'].filter((name) => !env[name])
  if (missing.length > 0) {
    console.error(`Set ${missing.join(' and ')} first: see examples/shop/README.md.`)
    process.exit(1)
  }
  const port = Number(env.SHOP_PORT ?? 3000)
  return {
    paylinksUrl: env.PAYLINKS_URL ?? 'http://localhost:8787',
    apiKey: env.PAYLINKS_API_KEY,
    webhookSecret: env.PAYLINKS_WEBHOOK_SECRET,
    port,
    host: env.SHOP_HOST ?? '127.0.0.1',
    database: env.SHOP_DATABASE ?? 'data/shop.db',
    publicUrl: (env.SHOP_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
  }
}

/** The request's cookies, by name. */
function cookies(req) {
  const jar = {}
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=')
    if (at > 0) jar[part.slice(0, at).trim()] = part.slice(at + 1).trim()
  }
  return jar
}

const cookie = (name, value) =>
  `${name}=${value}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax${config.publicUrl.startsWith('https:') ? '; Secure' : ''}`

/** The body, at most `limit` bytes; null when it is longer (the caller answers 413). */
async function readBody(req, limit) {
  if (Number(req.headers['content-length'] ?? 0) > limit) return null
  const chunks = []
  let size = 0
  for await (const chunk of req) {
    size += chunk.length
    if (size > limit) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

function send(res, status, html, headers = {}) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(html)
}

const redirect = (res, location, headers = {}) => res.writeHead(303, { location, ...headers }).end()

/** The cart's lines with their products (a product gone from the catalogue is left out). */
function cartLines(cartId) {
  if (!cartId) return []
  return db
    .cartItems(cartId)
    .map((row) => ({ product: findProduct(row.product_id), quantity: row.quantity }))
    .filter((line) => line.product)
}

const cartCount = (cartId) => cartLines(cartId).reduce((n, line) => n + line.quantity, 0)

async function handle(req, res) {
  const url = new URL(req.url ?? '/', config.publicUrl)
  const jar = cookies(req)
  const setCookies = []
  // The language: ?lang= (kept in a cookie), else the cookie, else the browser's first choice.
  let lang = url.searchParams.get('lang')
  if (LANGUAGES.includes(lang)) setCookies.push(cookie(LANG_COOKIE, lang))
  else if (LANGUAGES.includes(jar[LANG_COOKIE])) lang = jar[LANG_COOKIE]
  else lang = /^\s*en\b/i.test(req.headers['accept-language'] ?? '') ? 'en' : 'fr'
  const t = texts(lang)
  const cartId = ID.test(jar[CART_COOKIE] ?? '') ? jar[CART_COOKIE] : undefined
  const withCookies = setCookies.length > 0 ? { 'set-cookie': setCookies } : {}
  const route = `${req.method} ${url.pathname}`

  if (route === 'POST /paylinks/events') return receiveEvent(req, res)

  if (route === 'GET /') {
    return send(res, 200, homePage(lang, cartCount(cartId)), withCookies)
  }
  if (route === 'GET /cart') return send(res, 200, cartPage(lang, cartLines(cartId)), withCookies)

  if (route === 'POST /cart/add' || route === 'POST /cart/remove') {
    const body = await readBody(req, FORM_LIMIT)
    if (!body) return send(res, 413, messagePage(lang, t.badRequest, t.badRequest))
    const form = new URLSearchParams(body.toString('utf8'))
    const product = findProduct(form.get('product_id') ?? '')
    const quantity = Number(form.get('quantity') ?? 1)
    if (!product || !Number.isInteger(quantity) || quantity < 1 || quantity > 20)
      return send(
        res,
        400,
        messagePage(lang, t.badRequest, `product_id, quantity: ${t.badRequest}`),
      )
    const id = cartId ?? randomBytes(18).toString('base64url')
    if (route === 'POST /cart/add') db.addToCart(id, product.id, quantity)
    else db.removeFromCart(id, product.id)
    return redirect(res, '/cart', { 'set-cookie': [...setCookies, cookie(CART_COOKIE, id)] })
  }

  if (route === 'POST /cart/pay') return pay(res, cartId, lang)

  if (route === 'GET /thanks') {
    const checkoutId = url.searchParams.get('checkout_id') ?? ''
    if (!CHECKOUT_ID.test(checkoutId))
      return send(res, 400, messagePage(lang, t.badRequest, `checkout_id: ${t.badRequest}`))
    const order = await orderOfCheckout(checkoutId)
    if (!order) return send(res, 404, messagePage(lang, t.thanks, t.notFound))
    const page = thanksPage(lang, order, `/thanks?checkout_id=${checkoutId}`, cartCount(cartId))
    return send(res, 200, page, withCookies)
  }

  send(res, 404, messagePage(lang, t.notFound, t.notFound))
}

/** "Pay": the cart's order (the same one when "Pay" is sent again), its checkout, and off to it. */
async function pay(res, cartId, lang) {
  const lines = cartLines(cartId)
  if (lines.length === 0) return redirect(res, '/cart')
  const items = lines.map(({ product, quantity }) => ({
    product_id: product.id,
    name: product.name[lang],
    quantity,
    unit_price: product.price,
  }))
  const total = items.reduce((sum, item) => sum + item.unit_price * item.quantity, 0)
  const order = db.orderForCart(cartId, items, total, lang)
  try {
    const checkout = await checkoutForOrder(paylinks, order, config.publicUrl)
    db.setCheckout(order.id, checkout.id)
    redirect(res, checkout.url)
  } catch (error) {
    // The SDK has already retried what is safe to retry; the customer may press "Pay" again,
    // and the same Idempotency-Key makes that safe too.
    console.error(`checkout for ${order.id} failed: ${error.code ?? error.name} ${error.message}`)
    send(res, 502, cartPage(lang, lines, { error: texts(lang).unavailable }))
  }
}

/**
 * The order a return from Paylinks names: found by its checkout id, or else by reading the
 * checkout back from Paylinks (its `reference` is the order's id: the shop may have stopped
 * between creating the checkout and storing its id). Reading it changes nothing.
 */
async function orderOfCheckout(checkoutId) {
  const known = db.orderByCheckout(checkoutId)
  if (known) return known
  try {
    const checkout = await retrieveCheckout(paylinks, checkoutId)
    const order = checkout.reference ? db.order(checkout.reference) : undefined
    if (order) db.setCheckout(order.id, checkout.id)
    return order && db.order(order.id)
  } catch (error) {
    if (error.status === 404) return undefined
    throw error
  }
}

/**
 * POST /paylinks/events: Paylinks' signed events. Verified on the raw body; each webhook-id
 * handled once (a redelivery answers 2xx and changes nothing, so Paylinks stops sending it).
 */
async function receiveEvent(req, res) {
  const body = await readBody(req, EVENT_LIMIT)
  if (!body) return res.writeHead(413).end()
  let event
  try {
    event = await verifyEvent(body, req.headers, config.webhookSecret)
  } catch (error) {
    console.error(`refused an event: ${error.code ?? error.message}`)
    return res.writeHead(400).end()
  }
  const webhookId = req.headers['webhook-id']
  const outcome = db.handleEvent(webhookId, event)
  if (outcome === 'paid') console.log(`order ${event.data.reference} paid (${event.data.id})`)
  else if (outcome === 'wrong_amount')
    console.error(
      `order ${event.data.reference}: ${event.data.id} paid another amount; left pending`,
    )
  else console.log(`event ${webhookId} ${event.type}: ${outcome}`)
  res.writeHead(204).end()
}

const server = createServer((req, res) => {
  handle(req, res).catch((error) => {
    console.error(`${req.method} ${req.url?.split('?')[0]} failed: ${error.message}`)
    if (!res.headersSent) send(res, 500, messagePage('fr', 'Erreur', texts('fr').unavailable))
    else res.end()
  })
})

server.listen(config.port, config.host, () => {
  console.log(`Shop listening on ${config.publicUrl} (Paylinks at ${config.paylinksUrl})`)
})

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => db.close()))
