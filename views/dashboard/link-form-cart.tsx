/**
 * The link form's cart: the catalogue's products on sale, each with a quantity (empty or 0: not
 * sold by this link) and, for a quantity the customer chooses, a minimum and a maximum. Plain
 * number inputs, no script: `cart_qty_<id>`, `cart_min_<id>`, `cart_max_<id>`.
 */
import type { LinkForm } from '../../src/dashboard/link-form.js'
import { formatAmount } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'

/** A product the cart table offers. */
export type CartChoice = {
  id: string
  name: string
  sku: string | null
  price: number
  active: boolean
}

export function LinkFormCart(props: {
  ctx: DashContext
  form: LinkForm
  products: CartChoice[]
  error: string | undefined
}) {
  const { t, lang } = props.ctx
  if (props.products.length === 0) return <p class="muted">{t('cartNoProducts')}</p>
  const number = (name: string, id: string, value: string, label: string) => (
    <input
      type="number"
      inputmode="numeric"
      min="0"
      step="1"
      class="qty ltr"
      name={`${name}_${id}`}
      value={value}
      aria-label={label}
    />
  )
  return (
    <>
      <p class="muted" id="cart-hint">
        {t('cartProductsHint')}
      </p>
      {props.error ? (
        <p class="err" id="cart-err">
          {props.error}
        </p>
      ) : null}
      <div class="table-wrap">
        <table class="cart-table" aria-describedby="cart-hint">
          <thead>
            <tr>
              <th scope="col">{t('cartProducts')}</th>
              <th scope="col">{t('cartQuantity')}</th>
              <th scope="col">{t('cartMin')}</th>
              <th scope="col">{t('cartMax')}</th>
            </tr>
          </thead>
          <tbody>
            {props.products.map((p) => {
              const row = props.form.cart[p.id] ?? { qty: '', min: '', max: '' }
              return (
                <tr>
                  <td>
                    <bdi>{p.name}</bdi>
                    <br />
                    <span class="muted">
                      {formatAmount(p.price, lang)}
                      {p.sku ? ` · ${p.sku}` : ''}
                    </span>
                  </td>
                  <td>{number('cart_qty', p.id, row.qty, `${t('cartQuantity')} — ${p.name}`)}</td>
                  <td>{number('cart_min', p.id, row.min, `${t('cartMin')} — ${p.name}`)}</td>
                  <td>{number('cart_max', p.id, row.max, `${t('cartMax')} — ${p.name}`)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </>
  )
}
