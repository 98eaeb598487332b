/**
 * A payment's cart on its dashboard page: each product as sold (name, SKU, quantity, unit price,
 * line total) and the subtotal. Nothing for a payment that sold no products.
 */
import type { Payment } from '../../db/schema.js'
import { formatAmount } from '../../src/i18n/index.js'
import type { DashContext } from './layout.js'

export function PaymentLinesSection(props: { ctx: DashContext; payment: Payment }) {
  const { t, lang } = props.ctx
  const lines = props.payment.lineItems
  if (!lines || lines.length === 0) return null
  const subtotal = props.payment.subtotal ?? lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0)
  return (
    <section class="card pd" aria-labelledby="lines-title">
      <h2 id="lines-title">{t('sectionLines')}</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('cartProducts')}</th>
              <th scope="col" class="num">
                {t('cartQuantity')}
              </th>
              <th scope="col" class="num">
                {t('cartUnitPrice')}
              </th>
              <th scope="col" class="num">
                {t('cartLineTotal')}
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr>
                <td>
                  <bdi>{l.name}</bdi>
                  {l.sku ? (
                    <>
                      {' '}
                      <span class="muted" dir="ltr">
                        {l.sku}
                      </span>
                    </>
                  ) : null}
                </td>
                <td class="num">{l.quantity}</td>
                <td class="num">{formatAmount(l.unitPrice, lang)}</td>
                <td class="num">{formatAmount(l.unitPrice * l.quantity, lang)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colspan={3}>
                {t('cartSubtotal')}
              </th>
              <td class="num">{formatAmount(subtotal, lang)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  )
}
