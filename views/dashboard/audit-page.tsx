import type { AuditEntry } from '../../db/schema.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import { AUDIT_GROUPS, type AuditAction } from '../../src/domain/audit-actions.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { Field } from '../field.js'
import { detailLines } from './audit-detail.js'
import { type DashContext, DashLayout } from './layout.js'
import { Pager } from './links-page.js'
import { Cell, DateRangeAndApply, StackTable } from './parts.js'

/** The filters as typed, to fill the form again. */
export interface AuditFilters {
  group: string
  actor: string
  from: string
  to: string
}

const ACTOR_KINDS = new Set(['admin', 'user', 'key', 'system', 'anonymous'])

/** Where a target's own page is, for the kinds that have one. */
function targetHref(kind: string, id: string): string | undefined {
  const at = encodeURIComponent(id)
  if (kind === 'link') return `/dashboard/links/${at}`
  if (kind === 'product') return `/dashboard/products/${at}`
  if (kind === 'webhook_endpoint') return `/dashboard/webhooks/${at}`
  if (kind === 'api_key') return '/dashboard/keys'
  if (kind === 'payment') return `/dashboard/payments/${at}`
  return undefined
}

/** An action in the page's language; one this build does not know reads as its name. */
function actionText(ctx: DashContext, action: string): string {
  const key = `auAct_${action as AuditAction}` satisfies DashKey
  const text = ctx.t(key)
  return text === key ? action : text
}

/** The detail in the page's language (audit-detail.tsx), one line a fact. */
function DetailList(props: {
  ctx: DashContext
  entry: AuditEntry
  names: ReadonlyMap<string, string>
}) {
  const { ctx, entry } = props
  const lines = detailLines(ctx, entry.action, entry.detail, props.names)
  if (lines.length === 0) return <>{ctx.t('none')}</>
  return (
    <ul class="audit-detail">
      {lines.map((line) => (
        <li>
          {line.label === undefined ? null : (
            <span class="muted">
              {line.label}
              {ctx.t('auColon')}
            </span>
          )}
          {line.value}
        </li>
      ))}
    </ul>
  )
}

/**
 * A value without spaces (an e-mail, an id, an address) on one line, cut with an ellipsis where
 * its column ends, the whole of it in its title; text with spaces wraps at them.
 */
function Whole(props: { value: string; ltr?: boolean }) {
  const oneWord = !/\s/.test(props.value.trim())
  return (
    <bdi
      class={oneWord ? 'clip' : undefined}
      dir={props.ltr ? 'ltr' : undefined}
      title={oneWord ? props.value : undefined}
    >
      {props.value}
    </bdi>
  )
}

/** Who acted as the page names them: a failed sign-in with the admin token names the token. */
function actorText(ctx: DashContext, e: AuditEntry): string | null {
  const detail = e.detail ?? {}
  if (e.actorKind === 'anonymous' && detail.method === 'admin_token') return ctx.t('auKind_admin')
  return e.actorLabel
}

/** What a settings entry was about, in the page's language (its id is the part it changed). */
const SETTINGS_TARGETS: Record<string, DashKey> = { branding: 'navSettings', logo: 'stLogoTitle' }

/**
 * The audit log: filters (kind, who, Algiers days), then one row per act, newest first — time,
 * who (label and kind), what, on what, from which address, and its detail — and the pager.
 */
export function AuditPage(props: {
  ctx: DashContext
  values: AuditFilters
  invalid: string[]
  entries: AuditEntry[]
  actors: { id: string; label: string }[]
  nextHref: string | null
  firstHref: string | null
}) {
  const { ctx, values } = props
  const t = ctx.t
  const names = new Map(props.actors.map((a) => [a.id, a.label]))
  const col = {
    time: t('auditColTime'),
    who: t('auditColWho'),
    what: t('auditColWhat'),
    target: t('auditColTarget'),
    address: t('auditColAddress'),
    detail: t('auditColDetail'),
  }
  return (
    <DashLayout ctx={ctx} title={t('auditTitle')} nav="audit">
      <section class="card" aria-labelledby="audit-title">
        <h1 id="audit-title">{t('auditTitle')}</h1>
        <p class="muted">{t('auditIntro')}</p>
        <form class="filters" method="get" action="/dashboard/audit">
          <Field id="f-group" label={t('auditGroup')} as="select" attrs={{ name: 'group' }} wrap>
            <option value="">{t('auditAnyGroup')}</option>
            {AUDIT_GROUPS.map((g) => (
              <option value={g} selected={values.group === g}>
                {t(`auGroup_${g}`)}
              </option>
            ))}
          </Field>
          <Field id="f-actor" label={t('auditActor')} as="select" attrs={{ name: 'actor' }} wrap>
            <option value="">{t('auditAnyActor')}</option>
            <option value="admin" selected={values.actor === 'admin'}>
              {t('auditAdminToken')}
            </option>
            {props.actors.map((a) => (
              <option value={a.id} selected={values.actor === a.id}>
                {a.label}
              </option>
            ))}
          </Field>
          <DateRangeAndApply ctx={ctx} from={values.from} to={values.to} />
        </form>
        {props.invalid.length > 0 ? (
          <p class="alert" role="alert">
            {t('auditBadFilter', { field: props.invalid.join(', ') })}
          </p>
        ) : props.entries.length === 0 ? (
          <p class="muted">{t('auditNone')}</p>
        ) : (
          <StackTable
            columns={[
              { label: col.time },
              { label: col.who },
              { label: col.what },
              { label: col.target },
              { label: col.address },
              { label: col.detail },
            ]}
          >
            {props.entries.map((e) => {
              const href = e.targetKind && e.targetId ? targetHref(e.targetKind, e.targetId) : ''
              const settings =
                e.targetKind === 'settings' &&
                e.targetId &&
                Object.hasOwn(SETTINGS_TARGETS, e.targetId)
                  ? t(SETTINGS_TARGETS[e.targetId]!)
                  : null
              const who = actorText(ctx, e)
              return (
                <tr data-audit-id={String(e.id)} data-action={e.action}>
                  <Cell label={col.time} class="au-time">
                    {formatDateTime(e.at, ctx.lang)}
                  </Cell>
                  <Cell label={col.who} class="au-who" wide>
                    {e.actorKind === 'admin' ? (
                      t('auKind_admin')
                    ) : (
                      <>
                        {who === null ? t('none') : <Whole value={who} />}
                        <span class="sub muted">
                          {ACTOR_KINDS.has(e.actorKind)
                            ? t(`auKind_${e.actorKind as 'admin'}`)
                            : e.actorKind}
                        </span>
                      </>
                    )}
                  </Cell>
                  <Cell label={col.what} class="au-what">
                    {actionText(ctx, e.action)}
                  </Cell>
                  <Cell label={col.target} class="au-target">
                    {settings ??
                      (e.targetKind && e.targetId ? (
                        href ? (
                          <a class="clip" dir="ltr" href={href} title={e.targetId}>
                            {e.targetId}
                          </a>
                        ) : (
                          <Whole value={e.targetId} ltr />
                        )
                      ) : (
                        t('none')
                      ))}
                  </Cell>
                  <Cell label={col.address} class="au-address" wide>
                    {e.address ? <Whole value={e.address} ltr /> : t('none')}
                  </Cell>
                  <Cell label={col.detail} class="au-detail" wide>
                    <DetailList ctx={ctx} entry={e} names={names} />
                  </Cell>
                </tr>
              )
            })}
          </StackTable>
        )}
        <Pager ctx={ctx} nextHref={props.nextHref} firstHref={props.firstHref} />
      </section>
    </DashLayout>
  )
}
