import type { Product } from '../../db/schema.js'
import { formatAmount } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import { type DashContext, DashLayout } from './layout.js'
import { Pager } from './links-page.js'
import { Notice } from './parts.js'

/** Which products the list shows (`?status=`): all, those on sale, the archived ones. */
export type ProductsStatus = '' | 'active' | 'archived'

const STATUS_LABELS = {
  '': 'prFilterAll',
  active: 'prOnSale',
  archived: 'prArchivedBadge',
} as const

/** The side of a thumbnail's box, in CSS pixels. */
const THUMB = 48

/** A thumbnail's size: the image's proportions inside a THUMB × THUMB box. */
function thumbSize(width: number | null, height: number | null) {
  if (!width || !height) return { width: THUMB, height: THUMB }
  const scale = THUMB / Math.max(width, height)
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  }
}

/** The catalogue: image, name, price, stock, SKU and state of each product; a page at a time. */
export function ProductsPage(props: {
  ctx: DashContext
  products: (Product & { imageSrc: string | null })[]
  nextHref: string | null
  firstHref: string | null
  notice?: string | undefined
  /** The search box's text (`q`), and whether it was refused as too long. */
  search: { value: string; tooLong: boolean }
  /** The list's state filter; null when the one asked for is not one of them. */
  status: ProductsStatus | null
}) {
  const { ctx, search } = props
  const t = ctx.t
  const status = props.status ?? ''
  const filtered = search.value !== '' || status !== ''
  return (
    <DashLayout ctx={ctx} title={t('prTitle')} nav="products">
      <section class="card" aria-labelledby="products-title">
        <div class="head">
          <h1 id="products-title">{t('prTitle')}</h1>
          <a class="btn small" href="/dashboard/products/new">
            {t('prNew')}
          </a>
        </div>
        <Notice text={props.notice} />
        <form class="filters" method="get" action="/dashboard/products">
          <Field
            id="f-q"
            label={t('prSearchLabel')}
            type="search"
            attrs={{ name: 'q', value: search.value, dir: 'auto', autocomplete: 'off' }}
            error={search.tooLong ? t('searchTooLong') : undefined}
            wrap
          />
          <Field
            id="f-status"
            label={t('prFilterStatus')}
            as="select"
            attrs={{ name: 'status' }}
            error={props.status === null ? t('badFilter', { field: 'status' }) : undefined}
            wrap
          >
            {(['', 'active', 'archived'] as const).map((s) => (
              <option value={s} selected={status === s}>
                {t(STATUS_LABELS[s])}
              </option>
            ))}
          </Field>
          <button type="submit" class="small">
            {t('searchButton')}
          </button>
          {filtered ? <a href="/dashboard/products">{t('searchClear')}</a> : null}
        </form>
        {search.tooLong || props.status === null ? null : props.products.length === 0 ? (
          <p class="muted">{t(filtered ? 'prSearchNone' : 'prNoneYet')}</p>
        ) : (
          <ProductsTable ctx={ctx} products={props.products} />
        )}
        <Pager ctx={ctx} nextHref={props.nextHref} firstHref={props.firstHref} />
      </section>
    </DashLayout>
  )
}

function ProductsTable(props: {
  ctx: DashContext
  products: (Product & { imageSrc: string | null })[]
}) {
  const { ctx } = props
  const t = ctx.t
  return (
    <div class="table-wrap">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">{t('prColName')}</th>
            <th scope="col">{t('prColImage')}</th>
            <th scope="col" class="num">
              {t('prColPrice')}
            </th>
            <th scope="col" class="num">
              {t('prColStock')}
            </th>
            <th scope="col">{t('prColSku')}</th>
            <th scope="col">{t('prColStatus')}</th>
          </tr>
        </thead>
        <tbody>
          {props.products.map((p) => (
            <tr data-product-id={p.id}>
              <td data-label={t('prColName')}>
                <a dir="auto" href={`/dashboard/products/${p.id}`}>
                  {p.name}
                </a>
              </td>
              <td data-label={t('prColImage')}>
                {p.imageSrc ? (
                  <img
                    src={p.imageSrc}
                    alt={t('prImageAlt', { name: p.name })}
                    loading="lazy"
                    {...thumbSize(p.imageWidth, p.imageHeight)}
                  />
                ) : (
                  t('none')
                )}
              </td>
              <td class="num" data-label={t('prColPrice')}>
                {formatAmount(p.price, ctx.lang)}
              </td>
              <td class="num" data-label={t('prColStock')}>
                {p.stock === null ? t('prUnlimited') : p.stock}
              </td>
              <td data-label={t('prColSku')}>
                {p.sku ? (
                  <bdi class="ltr" dir="ltr">
                    {p.sku}
                  </bdi>
                ) : (
                  t('none')
                )}
              </td>
              <td data-label={t('prColStatus')}>
                <span class={p.active ? 'badge active' : 'badge inactive'}>
                  {t(p.active ? 'prOnSale' : 'prArchivedBadge')}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
