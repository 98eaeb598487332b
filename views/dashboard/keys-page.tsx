import type { ApiKeyRow } from '../../src/data/api-keys.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { CopyButton } from './link-share.js'
import { Cell, described, FieldError, Notice, StackTable } from './parts.js'
import { PostButton } from './webhook-parts.js'

/** The new-key form as typed. */
export interface KeyForm {
  name: string
  scope: string
  owner: string
}

/**
 * The API keys: the key just made (shown this once, with a copy button), the list with each
 * key's scope, person, creation, last use and state, and the form for a new one.
 */
export function KeysPage(props: {
  ctx: DashContext
  keys: ApiKeyRow[]
  form: KeyForm
  errors: Partial<Record<keyof KeyForm, string>>
  /** Whether a person is signed in (the admin token makes store keys only). */
  canActForMe: boolean
  created?: { name: string; text: string } | undefined
  notice?: string | undefined
}) {
  const { ctx, form, errors } = props
  const t = ctx.t
  const col = {
    name: t('keysColName'),
    scope: t('keysColScope'),
    owner: t('keysColOwner'),
    created: t('keysColCreated'),
    used: t('keysColUsed'),
    state: t('keysColState'),
  }
  const hasErrors = Object.keys(errors).length > 0
  return (
    <DashLayout ctx={ctx} title={t('keysTitle')} nav="keys" script="share">
      <section class="card" aria-labelledby="keys-title">
        <h1 id="keys-title">{t('keysTitle')}</h1>
        <Notice text={props.notice} />
        {props.created ? (
          <div class="wh-secret" data-key-shown="true">
            <h2>{t('keysCreatedTitle')}</h2>
            <p>{t('keysCreatedOnce')}</p>
            <p>
              <bdi dir="auto">{props.created.name}</bdi>
            </p>
            <div class="url-row">
              <input type="text" id="new-key" class="ltr" value={props.created.text} readonly />
              <CopyButton ctx={ctx} target="new-key" label={t('keysCopy')} />
            </div>
          </div>
        ) : null}
        <p class="muted">{t('keysIntro')}</p>
        <p class="muted">{t('keysStoreEnds')}</p>
        {props.keys.length === 0 ? (
          <p class="muted">{t('keysNone')}</p>
        ) : (
          <StackTable
            columns={[
              { label: col.name },
              { label: col.scope },
              { label: col.owner },
              { label: col.created },
              { label: col.used },
              { label: col.state },
              { label: '' },
            ]}
          >
            {props.keys.map((k) => (
              <tr data-key-id={k.id}>
                <Cell label={col.name} wide>
                  <bdi dir="auto">{k.name}</bdi>
                  <span class="sub muted ltr">
                    <code>{k.prefix}…</code>
                  </span>
                </Cell>
                <Cell label={col.scope}>
                  <span class={k.scope === 'write' ? 'badge pending' : 'badge active'}>
                    {t(k.scope === 'write' ? 'keysWrite' : 'keysRead')}
                  </span>
                </Cell>
                <Cell label={col.owner}>
                  {k.userId === null ? (
                    t('keysStore')
                  ) : k.userEmail ? (
                    <span class="ltr">{k.userEmail}</span>
                  ) : (
                    <span class="muted">{t('keysPersonGone')}</span>
                  )}
                </Cell>
                <Cell label={col.created}>{formatDateTime(k.createdAt, ctx.lang)}</Cell>
                <Cell label={col.used}>
                  {k.lastUsedAt === null
                    ? t('keysNeverUsed')
                    : formatDateTime(k.lastUsedAt, ctx.lang)}
                </Cell>
                <Cell label={col.state} data-revoked={String(k.revokedAt !== null)}>
                  {k.revokedAt === null ? (
                    <span class="badge paid">{t('keysActive')}</span>
                  ) : (
                    <>
                      <span class="badge inactive">{t('keysRevokedAt')}</span>
                      <span class="sub">{formatDateTime(k.revokedAt, ctx.lang)}</span>
                    </>
                  )}
                </Cell>
                <Cell label="" class="nowrap">
                  {k.revokedAt === null ? (
                    <PostButton
                      ctx={ctx}
                      action={`/dashboard/keys/${encodeURIComponent(k.id)}/revoke`}
                      label={t('keysRevoke')}
                      kind="danger"
                    />
                  ) : null}
                </Cell>
              </tr>
            ))}
          </StackTable>
        )}
      </section>
      <section class="card" aria-labelledby="new-key-title">
        <h2 id="new-key-title">{t('keysNew')}</h2>
        {hasErrors ? (
          <p class="alert" role="alert">
            {t('fixErrors')}
          </p>
        ) : null}
        <form method="post" action="/dashboard/keys" novalidate>
          <CsrfField ctx={ctx} />
          <label for="key-name">{t('keysFieldName')}</label>
          <input
            type="text"
            id="key-name"
            name="name"
            value={form.name}
            dir="auto"
            maxlength={80}
            required
            {...described('name', errors.name, 'name-hint')}
          />
          <p id="name-hint" class="hint muted">
            {t('keysNameHint')}
          </p>
          <FieldError id="name" error={errors.name} />
          <fieldset {...described('scope', errors.scope)}>
            <legend>{t('keysFieldScope')}</legend>
            <label class="check">
              <input type="radio" name="scope" value="read" checked={form.scope !== 'write'} />
              <span>{t('keysScopeRead')}</span>
            </label>
            <label class="check">
              <input type="radio" name="scope" value="write" checked={form.scope === 'write'} />
              <span>{t('keysScopeWrite')}</span>
            </label>
            <FieldError id="scope" error={errors.scope} />
          </fieldset>
          <fieldset {...described('owner', errors.owner)}>
            <legend>{t('keysFieldOwner')}</legend>
            <label class="check">
              <input type="radio" name="owner" value="store" checked={form.owner !== 'me'} />
              <span>{t('keysOwnerStore')}</span>
            </label>
            {props.canActForMe ? (
              <label class="check">
                <input type="radio" name="owner" value="me" checked={form.owner === 'me'} />
                <span>{t('keysOwnerMe')}</span>
              </label>
            ) : (
              <p class="hint muted">{t('keysOwnerStoreOnly')}</p>
            )}
            <FieldError id="owner" error={errors.owner} />
          </fieldset>
          <div class="actions">
            <button type="submit">{t('keysCreate')}</button>
          </div>
        </form>
      </section>
    </DashLayout>
  )
}
