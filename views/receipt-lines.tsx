/**
 * A cart's lines on the receipt page: name, quantity, unit price and line total as sold, then the
 * subtotal. Nothing for a payment that sold no products.
 */
import type { ReceiptView } from '../src/domain/receipt-view.js'
import { formatAmount } from '../src/i18n/index.js'
import type { PageContext } from './layout.js'

export function ReceiptLines(props: { ctx: PageContext; receipt: ReceiptView }) {
  const { t, lang } = props.ctx
  const lines = props.receipt.lineItems
  if (!lines || lines.length === 0) return null
  const subtotal = props.receipt.subtotal ?? lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0)
  return (
    <table class="receipt-lines">
      <caption class="muted">{t('items')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('item')}</th>
          <th scope="col" class="num">
            {t('quantity')}
          </th>
          <th scope="col" class="num">
            {t('unitPrice')}
          </th>
          <th scope="col" class="num">
            {t('total')}
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
                  <span class="muted">
                    (<bdi>{l.sku}</bdi>)
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
  )
}
