/**
 * A cart link's lines on the customer page: each product (its picture when it has one, its name,
 * its unit price), the quantity — a number input `qty_<product_id>` within the line's min and max
 * when the customer may change it — and the line's total, then the subtotal. A product with too
 * few units left says so; a fixed line sold out makes the page unpayable (the server refuses it
 * in any case). The order-total script reads `data-unit-price` on the quantity inputs and
 * `data-line-total` on the fixed lines (centimes); without script the server prices the order.
 */
import { formatAmount } from '../src/i18n/index.js'
import type { Centimes } from '../src/lib/money.js'
import { FieldError } from './field.js'
import type { PageContext } from './layout.js'

/** One line as the page shows it. */
export interface CartLineView {
  productId: string
  name: string
  /** The product's picture (a path under this Paylinks), when it has one. */
  imageUrl: string | null
  unitPrice: Centimes
  /** The quantity shown: the customer's choice (prefill, retry) or the line's own. */
  quantity: number
  /** The range the customer chooses in; null for a fixed line. */
  range: { min: number; max: number } | null
  /** Units still for sale (0 for a product no longer sold); null: unlimited. */
  left: number | null
}

export interface CheckoutCart {
  lines: CartLineView[]
  /** Σ unit price × quantity shown, in centimes. */
  subtotal: Centimes
}

/** Whether a cart can be paid as shown: no fixed line asks more than is left. */
export function cartPayable(cart: CheckoutCart): boolean {
  return cart.lines.every((l) => l.range !== null || l.left === null || l.left >= l.quantity)
}

// "Only N left" is said when it may matter to this customer: below what they could choose.
const FEW = 5

export function CheckoutCartLines(props: {
  ctx: PageContext
  cart: CheckoutCart
  errors: Partial<Record<string, string>>
}) {
  const { ctx, cart, errors } = props
  const { t, lang } = ctx
  return (
    <>
      <table class="cart">
        <caption class="muted">{t('cartCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('item')}</th>
            <th scope="col" class="num">
              {t('quantity')}
            </th>
            <th scope="col" class="num">
              {t('total')}
            </th>
          </tr>
        </thead>
        <tbody>
          {cart.lines.map((line) => {
            const field = `qty_${line.productId}`
            const error = errors[field]
            const soldOut = line.left === 0
            const few =
              line.left !== null &&
              line.left > 0 &&
              (line.left < (line.range?.max ?? line.quantity) || line.left <= FEW)
            const max = line.range
              ? Math.max(line.range.min, Math.min(line.range.max, line.left ?? line.range.max))
              : null
            return (
              <tr>
                <td>
                  <div class="cart-item">
                    {line.imageUrl ? (
                      <img src={line.imageUrl} alt="" width="40" height="40" loading="lazy" />
                    ) : null}
                    <div>
                      <bdi>{line.name}</bdi>
                      <br />
                      <span class="muted">{formatAmount(line.unitPrice, lang)}</span>
                      {soldOut ? (
                        <>
                          <br />
                          <strong class="stock">{t('cartSoldOut')}</strong>
                        </>
                      ) : few ? (
                        <>
                          <br />
                          <span class="stock">
                            {t('cartOnlyLeft', { count: String(line.left) })}
                          </span>
                        </>
                      ) : null}
                      <FieldError id={field} error={error} />
                    </div>
                  </div>
                </td>
                <td class="num">
                  {line.range ? (
                    <input
                      id={field}
                      name={field}
                      type="number"
                      inputmode="numeric"
                      class="qty"
                      min={line.range.min}
                      max={max ?? line.range.max}
                      step="1"
                      value={String(line.quantity)}
                      data-unit-price={String(line.unitPrice)}
                      aria-label={t('cartQuantityOf', { name: line.name })}
                      aria-invalid={error ? 'true' : undefined}
                      aria-describedby={error ? `${field}-err` : undefined}
                      disabled={soldOut && line.range.min > 0 ? true : undefined}
                    />
                  ) : (
                    line.quantity
                  )}
                  <input
                    type="hidden"
                    name={`price_${line.productId}`}
                    value={String(line.unitPrice)}
                  />
                </td>
                <td
                  class="num"
                  data-line-total={line.range ? undefined : String(line.unitPrice * line.quantity)}
                >
                  {formatAmount(line.unitPrice * line.quantity, lang)}
                </td>
              </tr>
            )
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colspan={2}>
              {t('cartSubtotal')}
            </th>
            <td class="num" id="cart-subtotal">
              {formatAmount(cart.subtotal, lang)}
            </td>
          </tr>
        </tfoot>
      </table>
      {cartPayable(cart) ? null : (
        <p class="alert" role="alert">
          {t('cartCannotPay')}
        </p>
      )}
    </>
  )
}
