import { raw } from 'hono/html'
import type { Centimes } from '../src/client/core/money.js'
import { formatAmount } from '../src/i18n/index.js'
import { Layout, type PageContext } from './layout.js'
import { CardMarks } from './marks.js'

const POSTER_CSS = `
@page{size:A5;margin:10mm}
.poster{text-align:center}
.poster .qr{inline-size:min(70vw,11cm);margin:1rem auto;display:block}
.poster .qr svg{inline-size:100%;block-size:auto}
.poster .url{font-size:.9rem;overflow-wrap:anywhere;direction:ltr}
.poster .marks svg{block-size:2rem}
@media print{.support{display:none}}
`

/** A printable A5 poster: merchant, title, amount, the QR code, the card marks, "scan to pay". */
export function PosterPage(props: {
  ctx: PageContext
  title: string
  amount: Centimes | null
  url: string
  qrSvg: string
}) {
  const { ctx } = props
  return (
    <Layout ctx={ctx} title={props.title} extraCss={POSTER_CSS}>
      <section class="card poster">
        <h1>{props.title}</h1>
        {props.amount !== null ? (
          <p class="amount">
            <bdi>{formatAmount(props.amount, ctx.lang)}</bdi>
          </p>
        ) : null}
        <div class="qr">{raw(props.qrSvg)}</div>
        <p>
          <strong>{ctx.t('scanToPay')}</strong>
        </p>
        <CardMarks />
        <p class="url">
          {ctx.t('orOpen')} <bdi>{props.url}</bdi>
        </p>
      </section>
    </Layout>
  )
}
