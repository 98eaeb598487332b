import type { ShareLinks } from '../../src/dashboard/share-links.js'
import type { LinkWithStats } from '../../src/data/links.js'
import type { LinkStatus } from '../../src/domain/link-status.js'
import { storedDzdText } from '../../src/domain/stored-amount.js'
import { formatAmount, formatDateTime } from '../../src/i18n/index.js'
import { CsrfField, type DashContext, DashLayout, LANGUAGE_NAMES } from './layout.js'
import { DepositRows } from './link-deposit.js'
import { CopyButton, LinkShare, LocalUrlWarning } from './link-share.js'
import { MetadataList } from './metadata-list.js'
import { Cell, LinkStatusBadge, linkAmountText, Notice, StackTable } from './parts.js'

function ActionButton(props: {
  ctx: DashContext
  action: string
  label: string
  danger?: boolean
}) {
  return (
    <form class="inline" method="post" action={props.action}>
      <CsrfField ctx={props.ctx} />
      <button type="submit" class={props.danger ? 'small danger' : 'small secondary'}>
        {props.label}
      </button>
    </form>
  )
}

/**
 * A link's page: its public address with a copy button (and a warning when customers cannot open
 * it), QR codes, poster, actions, sharing, then its settings.
 */
export function LinkDetailPage(props: {
  ctx: DashContext
  link: LinkWithStats
  status: LinkStatus
  url: string
  hasPayments: boolean
  /** How many of its payments were confirmed paid beyond `max_payments`. */
  beyondMaxPayments: number
  notice?: { text: string; kind?: 'ok' | 'error' } | undefined
  share: ShareLinks
  /** The HTML of a "Pay" button for the merchant's site. */
  payButton: string
  /** PUBLIC_URL's host when customers' phones cannot open it (loopback or private). */
  localHost?: string | undefined
}) {
  const { ctx, link } = props
  const t = ctx.t
  const base = `/dashboard/links/${link.id}`
  const qr = `/l/${encodeURIComponent(link.slug)}`
  const none = t('none')
  return (
    <DashLayout ctx={ctx} title={link.title} script="share">
      <section class="card" aria-labelledby="link-title">
        <div class="head">
          <h1 id="link-title" dir="auto">
            {link.title}
          </h1>
          <LinkStatusBadge ctx={ctx} status={props.status} />
        </div>
        <Notice text={props.notice?.text} kind={props.notice?.kind} />
        <LocalUrlWarning ctx={ctx} host={props.localHost} />
        <label for="public-url">{t('publicUrl')}</label>
        <div class="url-row">
          <input type="text" id="public-url" class="ltr" value={props.url} readonly />
          <CopyButton ctx={ctx} target="public-url" label={t('copyLink')} />
        </div>
        <h2>{t('qrCode')}</h2>
        <div class="qr">
          <img src={`${qr}/qr.svg`} alt={t('qrAlt')} width="192" height="192" />
          <div class="actions">
            <a class="btn small secondary" href={`${qr}/qr.svg?download`} download>
              {t('downloadSvg')}
            </a>
            <a class="btn small secondary" href={`${qr}/qr.png?download`} download>
              {t('downloadPng')}
            </a>
            <a class="btn small secondary" href={`${qr}/poster`}>
              {t('poster')}
            </a>
          </div>
        </div>
        <div class="actions">
          <a class="btn small" href={`${base}/edit`}>
            {t('edit')}
          </a>
          {link.active ? (
            <ActionButton ctx={ctx} action={`${base}/deactivate`} label={t('deactivate')} />
          ) : (
            <ActionButton ctx={ctx} action={`${base}/activate`} label={t('activate')} />
          )}
          {props.hasPayments ? null : (
            <ActionButton ctx={ctx} action={`${base}/delete`} label={t('deleteLink')} danger />
          )}
          <a class="btn small secondary" href={`/dashboard/payments?link=${link.id}`}>
            {t('linkPayments')}
          </a>
        </div>
      </section>
      <LinkShare
        ctx={ctx}
        title={link.title}
        url={props.url}
        share={props.share}
        payButton={props.payButton}
      />
      <section class="card">
        <dl class="kv">
          <dt>{t('colAmount')}</dt>
          <dd>{linkAmountText(ctx, link)}</dd>
          <dt>{t('colPaid')}</dt>
          <dd>{link.paidCount}</dd>
          <dt>{t('colCollected')}</dt>
          <dd>{formatAmount(link.paidTotal, ctx.lang)}</dd>
          <DepositRows ctx={ctx} link={link} />
          <dt>{t('fieldDescription')}</dt>
          <dd dir="auto">{link.description ?? none}</dd>
          <dt>{t('detailInvoice')}</dt>
          <dd class="ltr">{link.invoiceId ?? none}</dd>
          <dt>{t('detailMaxPayments')}</dt>
          <dd>{link.maxPayments ?? none}</dd>
          {props.beyondMaxPayments > 0 ? (
            <>
              <dt>{t('detailBeyondMaxPayments')}</dt>
              <dd data-flag="beyond-max-payments">
                <span class="badge beyond">{props.beyondMaxPayments}</span>{' '}
                {t('beyondMaxPaymentsHint')}
              </dd>
            </>
          ) : null}
          <dt>{t('detailExpiresAt')}</dt>
          <dd>{link.expiresAt === null ? none : formatDateTime(link.expiresAt, ctx.lang)}</dd>
          <dt>{t('detailLanguage')}</dt>
          <dd>{LANGUAGE_NAMES[link.language]}</dd>
          <dt>{t('detailMemo')}</dt>
          <dd dir="auto">{link.memo ?? none}</dd>
          <dt>{t('detailSuccessMessage')}</dt>
          <dd dir="auto">{link.successMessage ?? none}</dd>
          <dt>{t('detailSuccessUrl')}</dt>
          <dd class="ltr">{link.successUrl ?? none}</dd>
          <dt>{t('detailInactiveMessage')}</dt>
          <dd dir="auto">{link.inactiveMessage ?? none}</dd>
          <dt>{t('colCreated')}</dt>
          <dd>{formatDateTime(link.createdAt, ctx.lang)}</dd>
        </dl>
        {link.invoiceItems ? (
          <>
            <h2>{t('detailItems')}</h2>
            <StackTable
              columns={[
                { label: t('detailItem') },
                { label: t('itemQuantity'), num: true },
                { label: t('itemUnitPrice'), num: true },
              ]}
            >
              {link.invoiceItems.map((item) => (
                <tr>
                  <Cell label={t('detailItem')}>
                    <bdi>{item.description}</bdi>
                  </Cell>
                  <Cell label={t('itemQuantity')} num>
                    {item.quantity}
                  </Cell>
                  <Cell label={t('itemUnitPrice')} num data-dzd={storedDzdText(item.unitPrice)}>
                    {formatAmount(item.unitPrice, ctx.lang)}
                  </Cell>
                </tr>
              ))}
            </StackTable>
          </>
        ) : null}
        {link.customFields && link.customFields.length > 0 ? (
          <>
            <h2>{t('sectionCustomFields')}</h2>
            <dl class="kv" data-custom-fields>
              {link.customFields.map((f) => (
                <>
                  <dt>
                    <bdi dir="auto">{f.label}</bdi>
                  </dt>
                  <dd>
                    <bdi dir="ltr">{`cf_${f.key} · ${f.type}`}</bdi>
                    {` · ${t(f.required ? 'questionRequired' : 'questionOptional')}`}
                    {f.options ? (
                      <>
                        {' · '}
                        <bdi dir="auto">{f.options.join('; ')}</bdi>
                      </>
                    ) : null}
                  </dd>
                </>
              ))}
            </dl>
          </>
        ) : null}
        <MetadataList ctx={ctx} metadata={link.metadata} id="metadata-title" />
      </section>
    </DashLayout>
  )
}
