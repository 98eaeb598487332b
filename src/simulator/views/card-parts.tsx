/** Pieces of the hosted card page: the payment summary, language links, end buttons, test cards. */
import { TEST_CARDS } from '../constants.js'
import type { Language } from '../state.js'
import { CARD_OUTCOME_LABELS, type CardPageWords, WORDS } from './i18n.js'

/** What the card page shows about a payment. */
export interface PaymentView {
  lang: Language
  base: string
  /** The page's own path (`{base}/pay/{id}`) and the `?lang=` suffix to keep on links. */
  path: string
  langQuery: string
  amount: string
  account: string
  orderNumber: string
  memo: string | null
  sandbox: boolean
  expiresAt: string
}

/** The amount, merchant account and order number. */
export function Summary({ view, w }: { view: PaymentView; w: CardPageWords }) {
  return (
    <section class="card" aria-label={w.title}>
      <dl>
        <dt>{w.amount}</dt>
        <dd class="amount">{view.amount}</dd>
        <dt>{w.merchant}</dt>
        <dd>
          <code>{view.account}</code>
        </dd>
        <dt>{w.order}</dt>
        <dd>{view.orderNumber}</dd>
        {view.memo ? (
          <>
            <dt>{w.memo}</dt>
            <dd>
              <bdi>{view.memo}</bdi>
            </dd>
          </>
        ) : null}
      </dl>
      {view.sandbox ? <p class="hint">{w.sandbox}</p> : null}
    </section>
  )
}

/** Links to the same page in each language. */
export function LanguageLinks({ view, w }: { view: PaymentView; w: CardPageWords }) {
  const names: Record<Language, string> = { ar: 'العربية', fr: 'Français', en: 'English' }
  return (
    <nav aria-label={w.language}>
      <ul>
        {(['ar', 'fr', 'en'] as const).map((lang) => (
          <li>
            <a
              href={`${view.path}?lang=${lang}`}
              lang={lang}
              aria-current={lang === view.lang ? 'page' : undefined}
            >
              {names[lang]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** The cancel and "let the session expire" buttons, each its own form. */
export function EndButtons({ view, w }: { view: PaymentView; w: CardPageWords }) {
  return (
    <div class="actions">
      <form method="post" action={`${view.path}/cancel${view.langQuery}`}>
        <button type="submit" class="secondary">
          {w.cancel}
        </button>
      </form>
      <form method="post" action={`${view.path}/expire${view.langQuery}`}>
        <button type="submit" class="secondary">
          {w.expire}
        </button>
      </form>
    </div>
  )
}

/** The test cards table, in the page's language. */
export function TestCardsTable({ lang }: { lang: Language }) {
  const w = WORDS[lang]
  // A box that scrolls on a narrow phone: reachable by keyboard, named by its table's caption.
  return (
    <section class="scroll" tabindex={0} aria-label={w.testCards}>
      <table>
        <caption>{w.testCards}</caption>
        <thead>
          <tr>
            <th scope="col">{w.cardColumn}</th>
            <th scope="col">{w.expiryColumn}</th>
            <th scope="col">{w.cvvColumn}</th>
            <th scope="col">{w.outcomeColumn}</th>
          </tr>
        </thead>
        <tbody>
          {TEST_CARDS.map((card) => (
            <tr>
              <td dir="ltr">
                <code>{card.number}</code>
              </td>
              <td dir="ltr">{card.expiry}</td>
              <td dir="ltr">{card.cvv}</td>
              <td>{CARD_OUTCOME_LABELS[lang][card.outcome]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
