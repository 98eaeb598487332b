import { raw } from 'hono/html'
import { formatAmount } from '../src/i18n/index.js'
import type { Centimes } from '../src/lib/money.js'
import { Layout, type PageContext } from './layout.js'
import { CardMarks } from './marks.js'

// On paper the poster is the whole A5 page: no shadow, no header, the QR as large as fits.
const POSTER_CSS = `
@page{size:A5;margin:10mm}
.poster{text-align:center}
.poster-logo{display:block;block-size:4rem;inline-size:auto;max-inline-size:60%;object-fit:contain;margin:0 auto .5rem}
.poster .by{font-weight:700;font-size:1.05rem;margin:0 0 .75rem;overflow-wrap:anywhere}
.poster h1{font-size:1.5rem}
.poster .scan{font-size:1.2rem;font-weight:700;margin:.75rem 0 .25rem}
.poster .qr{inline-size:min(72vw,17rem);margin:0 auto}
.poster .qr svg{display:block;inline-size:100%;block-size:auto}
.poster .marks svg{block-size:2.25rem}
.poster .url{font-size:.85rem;margin-block:.75rem 0;overflow-wrap:anywhere}
@media print{
body{font-size:12pt}
header.top,.support{display:none}
.card.poster{border:0;padding:0;margin:0}
.poster h1{font-size:20pt}
.poster .amount{font-size:26pt}
.poster .qr{inline-size:88mm}
.poster .scan{font-size:15pt}
}
`

/** A printable A5 poster: merchant, title, amount, "scan to pay", the QR code, the card marks. */
export function PosterPage(props: {
  ctx: PageContext
  title: string
  amount: Centimes | null
  url: string
  qrSvg: string
  /** Said on screen only (never printed): customers' phones cannot open `url`. */
  warning?: string | undefined
}) {
  const { ctx } = props
  return (
    <Layout ctx={ctx} title={props.title} extraCss={POSTER_CSS}>
      {props.warning ? (
        <p class="alert no-print" data-warning="local-public-url">
          {props.warning}
        </p>
      ) : null}
      <section class="card poster">
        {ctx.brand?.logo ? (
          <img
            class="poster-logo"
            src={ctx.brand.logo.src}
            width={ctx.brand.logo.width}
            height={ctx.brand.logo.height}
            alt=""
          />
        ) : null}
        <p class="by">{ctx.merchantName}</p>
        <h1>{props.title}</h1>
        {props.amount !== null ? (
          <p class="amount">
            <bdi>{formatAmount(props.amount, ctx.lang)}</bdi>
          </p>
        ) : null}
        <p class="scan">{ctx.t('scanToPay')}</p>
        <div class="qr">{raw(props.qrSvg)}</div>
        <CardMarks />
        <p class="url">
          {ctx.t('orOpen')}{' '}
          <bdi dir="ltr">
            <a href={props.url}>{props.url}</a>
          </bdi>
        </p>
      </section>
    </Layout>
  )
}
