/**
 * The shop's pages, in French or English: plain HTML strings, every value escaped. No script:
 * forms post, the server answers with a redirect or a page.
 */
import { PRODUCTS } from './catalogue.mjs'

export const LANGUAGES = ['fr', 'en']

const TEXT = {
  fr: {
    shop: 'Épicerie El Djazaïr',
    products: 'Nos produits',
    add: 'Ajouter au panier',
    quantity: 'Quantité',
    item: 'Article',
    cart: 'Panier',
    cartEmpty: 'Votre panier est vide.',
    backToShop: 'Continuer mes achats',
    remove: 'Retirer',
    total: 'Total',
    pay: 'Payer par carte CIB ou Edahabia',
    payNote: 'Vous allez être dirigé vers la page de paiement sécurisée.',
    thanks: 'Merci pour votre commande',
    order: 'Commande',
    paid: 'Payée : nous préparons votre commande.',
    waiting:
      'En attente de la confirmation du paiement. Cette page se met à jour toute seule ; vous pouvez aussi la recharger.',
    notFound: 'Commande introuvable.',
    unavailable:
      'Le service de paiement ne répond pas. Votre panier est conservé : réessayez dans un instant.',
    badRequest: 'Demande invalide',
    language: 'Langue',
  },
  en: {
    shop: 'El Djazair Grocery',
    products: 'Our products',
    add: 'Add to cart',
    quantity: 'Quantity',
    item: 'Item',
    cart: 'Cart',
    cartEmpty: 'Your cart is empty.',
    backToShop: 'Continue shopping',
    remove: 'Remove',
    total: 'Total',
    pay: 'Pay by CIB or Edahabia card',
    payNote: 'You will be taken to the secure payment page.',
    thanks: 'Thank you for your order',
    order: 'Order',
    paid: 'Paid: we are preparing your order.',
    waiting:
      "Waiting for the payment's confirmation. This page updates itself; you may also reload it.",
    notFound: 'Order not found.',
    unavailable: 'The payment service is not answering. Your cart is kept: try again in a moment.',
    badRequest: 'Invalid request',
    language: 'Language',
  },
}

/** The texts of a language (French unless English). */
export const texts = (lang) => TEXT[lang] ?? TEXT.fr

/** Escapes text for HTML content and attribute values. */
export function html(value) {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  )
}

/** Centimes as the customer reads them: "12 500,00 DA", "DZD 12,500.00". */
export function money(centimes, lang) {
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'fr-DZ', {
    style: 'currency',
    currency: 'DZD',
  }).format(centimes / 100)
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1d2327; background: #f6f7f7 }
  header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center;
    justify-content: space-between; padding: .75rem 1rem; background: #0b5d3b; color: #fff }
  header a { color: #fff } header .tools { display: flex; gap: 1.5rem } header .brand { font-weight: 700; text-decoration: none }
  main { max-width: 44rem; margin: 0 auto; padding: 1rem }
  ul.products { list-style: none; padding: 0; display: grid; gap: 1rem;
    grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)) }
  .card { background: #fff; border: 1px solid #dcdcde; border-radius: .5rem; padding: 1rem }
  .card h2 { font-size: 1.05rem; margin: 0 0 .25rem } .price { font-weight: 700 }
  form.inline { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end }
  label { display: block; font-size: .9rem }
  input[type=number] { width: 4.5rem; padding: .4rem; font: inherit }
  button { font: inherit; padding: .55rem 1rem; border-radius: .4rem; border: 1px solid #0b5d3b;
    background: #0b5d3b; color: #fff; cursor: pointer }
  button.link { background: none; border: 0; padding: 0; color: #0b5d3b; text-decoration: underline;
    font-size: .9rem }
  table { width: 100%; border-collapse: collapse; background: #fff }
  th, td { text-align: start; padding: .5rem; border-bottom: 1px solid #dcdcde }
  td.num, th.num { text-align: end; white-space: nowrap }
  .status { padding: .75rem 1rem; border-radius: .4rem; background: #fff; border: 1px solid #dcdcde }
  .status.paid { border-color: #0b5d3b; background: #e7f4ed }
  .error { padding: .75rem 1rem; border-radius: .4rem; background: #fcf0f1; border: 1px solid #d63638 }
`

/** The frame of every page: header with the cart and the language switch. */
export function layout(lang, { title, body, cartCount = 0, refreshSeconds, path = '/' }) {
  const t = texts(lang)
  const other = lang === 'en' ? 'fr' : 'en'
  const switchTo = `${path}${path.includes('?') ? '&' : '?'}lang=${other}`
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ''}
<title>${html(title)} · ${html(t.shop)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <a class="brand" href="/">${html(t.shop)}</a>
  <div class="tools">
  <a href="/cart">${html(t.cart)} (${cartCount})</a>
  <nav aria-label="${html(t.language)}">
    <a href="${html(switchTo)}" lang="${other}" hreflang="${other}">${other === 'en' ? 'English' : 'Français'}</a>
  </nav>
  </div>
</header>
<main>
<h1>${html(title)}</h1>
${body}
</main>
</body>
</html>`
}

/** The catalogue, each product with a quantity and "Add to cart". */
export function homePage(lang, cartCount) {
  const t = texts(lang)
  const items = PRODUCTS.map(
    (p) => `<li class="card">
  <h2>${html(p.name[lang])}</h2>
  <p class="price">${html(money(p.price, lang))}</p>
  <form class="inline" method="post" action="/cart/add">
    <input type="hidden" name="product_id" value="${html(p.id)}">
    <label>${html(t.quantity)}
      <input type="number" name="quantity" value="1" min="1" max="20" required></label>
    <button type="submit" aria-label="${html(`${t.add}: ${p.name[lang]}`)}">${html(t.add)}</button>
  </form>
</li>`,
  ).join('\n')
  return layout(lang, {
    title: t.products,
    cartCount,
    body: `<ul class="products">${items}</ul>`,
  })
}

/** The cart: its lines, the total, and "Pay". `lines`: [{product, quantity}]. */
export function cartPage(lang, lines, { error } = {}) {
  const t = texts(lang)
  const count = lines.reduce((n, line) => n + line.quantity, 0)
  const notice = error ? `<p class="error" role="alert">${html(error)}</p>` : ''
  if (lines.length === 0)
    return layout(lang, {
      title: t.cart,
      path: '/cart',
      body: `${notice}<p>${html(t.cartEmpty)}</p><p><a href="/">${html(t.backToShop)}</a></p>`,
    })
  const total = lines.reduce((sum, line) => sum + line.product.price * line.quantity, 0)
  const rows = lines
    .map(
      ({ product, quantity }) => `<tr>
  <td>${html(product.name[lang])}
    <form method="post" action="/cart/remove">
      <input type="hidden" name="product_id" value="${html(product.id)}">
      <button class="link" type="submit" aria-label="${html(`${t.remove}: ${product.name[lang]}`)}">${html(t.remove)}</button>
    </form></td>
  <td class="num">${quantity}</td>
  <td class="num">${html(money(product.price * quantity, lang))}</td>
</tr>`,
    )
    .join('\n')
  return layout(lang, {
    title: t.cart,
    path: '/cart',
    cartCount: count,
    body: `${notice}
<table>
<thead><tr><th>${html(t.item)}</th><th class="num">${html(t.quantity)}</th><th class="num">${html(t.total)}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th>${html(t.total)}</th><td></td><td class="num total">${html(money(total, lang))}</td></tr></tfoot>
</table>
<form method="post" action="/cart/pay">
  <p>${html(t.payNote)}</p>
  <button class="pay" type="submit">${html(t.pay)}</button>
</form>
<p><a href="/">${html(t.backToShop)}</a></p>`,
  })
}

/**
 * After paying: the order, and whether it is paid. "Paid" only once Paylinks' signed event said
 * so; until then the page says it waits, and reloads itself every few seconds.
 */
export function thanksPage(lang, order, path, cartCount = 0) {
  const t = texts(lang)
  const paid = order.status === 'paid'
  const rows = order.items
    .map(
      (item) =>
        `<tr><td>${html(item.name)}</td><td class="num">${item.quantity}</td><td class="num">${html(money(item.unit_price * item.quantity, lang))}</td></tr>`,
    )
    .join('\n')
  return layout(lang, {
    title: t.thanks,
    path,
    cartCount,
    refreshSeconds: paid ? undefined : 5,
    body: `<p>${html(t.order)} <strong class="order-id">${html(order.id)}</strong></p>
<p class="status${paid ? ' paid' : ''}" role="status">${html(paid ? t.paid : t.waiting)}</p>
<table>
<thead><tr><th>${html(t.item)}</th><th class="num">${html(t.quantity)}</th><th class="num">${html(t.total)}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th>${html(t.total)}</th><td></td><td class="num">${html(money(order.total, lang))}</td></tr></tfoot>
</table>
<p><a href="/">${html(t.backToShop)}</a></p>`,
  })
}

/** A short page for a refusal or a failure: a title and one sentence. */
export function messagePage(lang, title, message) {
  return layout(lang, {
    title,
    body: `<p class="error" role="alert">${html(message)}</p><p><a href="/">${html(texts(lang).backToShop)}</a></p>`,
  })
}
