/** The hosted card page: GET shows the current step; forms post the card, the OTP, cancel, expire. */
import { type Context, Hono } from 'hono'
import { readForm } from '../../lib/form-body.js'
import { finishTransaction, refreshSession } from '../card/finish.js'
import { OUTCOMES } from '../card/outcomes.js'
import { maskPan } from '../card/transaction.js'
import { findTestCard, TEST_OTP } from '../constants.js'
import type { SimContext } from '../context.js'
import type { CardOutcome, CardTransaction, Language } from '../state.js'
import {
  CardFormPage,
  NotFoundPage,
  OtpPage,
  type PaymentView,
  ResultPage,
} from '../views/card-page.js'
import { formatAmount, WORDS } from '../views/i18n.js'
import { dzdText } from '../wire/amounts.js'
import { withFault } from './fault-middleware.js'
import { renderPage } from './render.js'

const isLanguage = (value: unknown): value is Language =>
  value === 'ar' || value === 'fr' || value === 'en'

function paymentView(ctx: SimContext, c: Context, tx: CardTransaction): PaymentView {
  const override = c.req.query('lang')
  const lang = isLanguage(override) ? override : tx.language
  return {
    lang,
    base: ctx.config.basePath,
    path: `${ctx.config.basePath}/pay/${tx.orderId}`,
    langQuery: isLanguage(override) ? `?lang=${override}` : '',
    amount: formatAmount(dzdText(tx.amount), lang),
    account: tx.account,
    orderNumber: tx.cibTransactionId,
    memo: tx.memo,
    sandbox: tx.sandbox,
    expiresAt: new Date(tx.expiresAt).toISOString().slice(11, 16),
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')
const sameExpiry = (given: string, expected: string) =>
  given.replace(/[\s/-]/g, '') === expected.replace('/', '')

/** The card page routes. */
export function cardPageRoutes(ctx: SimContext): Hono {
  const app = new Hono()
  app.use('/pay/*', withFault(ctx, 'card-page'))

  const load = async (c: Context): Promise<CardTransaction | Response> => {
    const tx = ctx.state.transactions.get(c.req.param('id') ?? '')
    if (!tx) {
      const lang = c.req.query('lang')
      return renderPage(
        c,
        <NotFoundPage lang={isLanguage(lang) ? lang : 'ar'} base={ctx.config.basePath} />,
        404,
      )
    }
    return refreshSession(ctx, tx)
  }
  const pageUrl = (c: Context, tx: CardTransaction) => {
    const view = paymentView(ctx, c, tx)
    return `${view.path}${view.langQuery}`
  }
  const end = async (c: Context, tx: CardTransaction, outcome: CardOutcome) => {
    await finishTransaction(ctx, tx, outcome)
    return c.redirect(tx.returnRedirect ?? pageUrl(c, tx), 303)
  }

  const show = async (c: Context) => {
    const tx = await load(c)
    if (tx instanceof Response) return tx
    const view = paymentView(ctx, c, tx)
    if (tx.step === 'card') return renderPage(c, <CardFormPage view={view} />)
    if (tx.step === 'otp')
      return renderPage(
        c,
        <OtpPage view={view} otp={TEST_OTP} cardNumber={maskPan(tx.cardNumber!)} />,
      )
    const spec = OUTCOMES[tx.outcome!]
    const message = spec.respCodeDesc?.[view.lang] || spec.actionCodeDescription[view.lang]
    const success = tx.outcome === 'approved'
    return renderPage(
      c,
      <ResultPage
        view={view}
        success={success}
        message={message}
        returnRedirect={tx.returnRedirect}
      />,
    )
  }
  app.get('/pay/:id', show)
  app.get('/pay/:id/info', show)

  app.post('/pay/:id/card', async (c) => {
    const tx = await load(c)
    if (tx instanceof Response) return tx
    if (tx.step !== 'card') return c.redirect(pageUrl(c, tx), 303)
    const form = await readForm(c)
    const values = { pan: text(form.pan), expiry: text(form.expiry), cvv: text(form.cvv) }
    const view = paymentView(ctx, c, tx)
    const w = WORDS[view.lang]
    const card = findTestCard(values.pan)
    const problem: [string, 'pan' | 'expiry' | 'cvv'] | null = !card
      ? [w.unknownCard, 'pan']
      : !sameExpiry(values.expiry, card.expiry)
        ? [w.wrongExpiry, 'expiry']
        : values.cvv !== card.cvv
          ? [w.wrongCvv, 'cvv']
          : null
    if (problem || !card)
      return renderPage(
        c,
        <CardFormPage view={view} error={problem?.[0]} errorField={problem?.[1]} values={values} />,
        400,
      )
    tx.step = 'otp'
    tx.cardNumber = card.number
    tx.cardOutcome = card.outcome
    return c.redirect(pageUrl(c, tx), 303)
  })

  app.post('/pay/:id/otp', async (c) => {
    const tx = await load(c)
    if (tx instanceof Response) return tx
    if (tx.step !== 'otp') return c.redirect(pageUrl(c, tx), 303)
    const form = await readForm(c)
    if (text(form.otp) !== TEST_OTP) {
      const view = paymentView(ctx, c, tx)
      return renderPage(
        c,
        <OtpPage view={view} otp={TEST_OTP} cardNumber={maskPan(tx.cardNumber!)} error />,
        400,
      )
    }
    return end(c, tx, tx.cardOutcome!)
  })

  for (const [action, outcome] of [
    ['cancel', 'canceled'],
    ['expire', 'session_expired'],
  ] as const) {
    app.post(`/pay/:id/${action}`, async (c) => {
      const tx = await load(c)
      if (tx instanceof Response) return tx
      if (tx.outcome) return c.redirect(pageUrl(c, tx), 303)
      return end(c, tx, outcome)
    })
  }

  return app
}
