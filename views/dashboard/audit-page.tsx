import type { AuditEntry } from '../../db/schema.js'
import type { DashKey } from '../../src/dashboard/messages.js'
import { AUDIT_GROUPS, type AuditAction } from '../../src/domain/audit-actions.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { Field } from '../field.js'
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
  if (kind === 'webhook_endpoint') return `/dashboard/webhooks/${at}`
  if (kind === 'api_key') return '/dashboard/keys'
  return undefined
}

/** An action in the page's language; one this build does not know reads as its name. */
function actionText(ctx: DashContext, action: string): string {
  const key = `auAct_${action as AuditAction}` satisfies DashKey
  const text = ctx.t(key)
  return text === key ? action : text
}

/** A detail's value: text as it is, a list joined, anything else as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(String).join(', ')
  return JSON.stringify(value)
}

/** The detail as `name: value` lines (values that are not text as JSON). */
function DetailList(props: { detail: Record<string, unknown> | null }) {
  const entries = Object.entries(props.detail ?? {}).filter(([, value]) => value !== null)
  if (entries.length === 0) return null
  // Field names are the API's (English, left to right); values keep their own direction.
  return (
    <ul class="audit-detail" dir="ltr">
      {entries.map(([name, value]) => (
        <li>
          <span class="muted">{name}</span> <bdi dir="auto">{shown(value)}</bdi>
        </li>
      ))}
    </ul>
  )
}

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
              return (
                <tr data-audit-id={String(e.id)} data-action={e.action}>
                  <Cell label={col.time} class="nowrap">
                    {formatDateTime(e.at, ctx.lang)}
                  </Cell>
                  <Cell label={col.who} wide>
                    {e.actorKind === 'admin' ? (
                      t('auKind_admin')
                    ) : (
                      <>
                        <bdi dir="auto">{e.actorLabel ?? t('none')}</bdi>
                        <span class="sub muted">
                          {ACTOR_KINDS.has(e.actorKind)
                            ? t(`auKind_${e.actorKind as 'admin'}`)
                            : e.actorKind}
                        </span>
                      </>
                    )}
                  </Cell>
                  <Cell label={col.what}>{actionText(ctx, e.action)}</Cell>
                  <Cell label={col.target}>
                    {e.targetKind && e.targetId ? (
                      href ? (
                        <a class="ltr" href={href}>
                          {e.targetId}
                        </a>
                      ) : (
                        <span class="ltr">{e.targetId}</span>
                      )
                    ) : (
                      t('none')
                    )}
                  </Cell>
                  <Cell label={col.address}>
                    <span class="ltr">{e.address ?? t('none')}</span>
                  </Cell>
                  <Cell label={col.detail} wide>
                    <DetailList detail={e.detail} />
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
