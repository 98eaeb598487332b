import type { ApiKeyRow } from '../../src/data/api-keys.js'
import { formatDateTime } from '../../src/i18n/index.js'
import { Check, Choices, Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { CopyButton } from './link-share.js'
import { Cell, Notice, StackTable } from './parts.js'
import { PostButton } from './webhook-parts.js'

/** The new-key form as typed. */
export interface KeyForm {
  name: string
  scope: string
  owner: string
}

type KeyErrors = Partial<Record<keyof KeyForm, string>>

/**
 * The API keys: the key just made (shown this once, with a copy button), the list with each
 * key's scope, person, creation, last use and state, and the form for a new one.
 */
export function KeysPage(props: {
  ctx: DashContext
  keys: ApiKeyRow[]
  form: KeyForm
  errors: KeyErrors
  /** Whether a person is signed in (the admin token makes store keys only). */
  canActForMe: boolean
  created?: { name: string; text: string } | undefined
  notice?: string | undefined
}) {
  const { ctx } = props
  const t = ctx.t
  return (
    <DashLayout ctx={ctx} title={t('keysTitle')} nav="keys" script="share">
      <section class="card" aria-labelledby="keys-title">
        <h1 id="keys-title">{t('keysTitle')}</h1>
        <Notice text={props.notice} />
        {props.created ? <KeyShownOnce ctx={ctx} created={props.created} /> : null}
        <p class="muted">{t('keysIntro')}</p>
        <p class="muted">{t('keysStoreEnds')}</p>
        <KeyList ctx={ctx} keys={props.keys} />
      </section>
      <NewKeyForm
        ctx={ctx}
        form={props.form}
        errors={props.errors}
        canActForMe={props.canActForMe}
      />
    </DashLayout>
  )
}

/** The key just made, with its copy button: this answer is the only one that shows it. */
function KeyShownOnce(props: { ctx: DashContext; created: { name: string; text: string } }) {
  const t = props.ctx.t
  return (
    <div class="wh-secret" data-key-shown="true">
      <h2 id="new-key-title">{t('keysCreatedTitle')}</h2>
      <p>{t('keysCreatedOnce')}</p>
      <p>
        <bdi dir="auto">{props.created.name}</bdi>
      </p>
      <div class="url-row">
        <input
          type="text"
          id="new-key"
          class="ltr"
          value={props.created.text}
          aria-labelledby="new-key-title"
          readonly
        />
        <CopyButton ctx={props.ctx} target="new-key" label={t('keysCopy')} />
      </div>
    </div>
  )
}

/** Every key: name and prefix, scope, whose, made, last used, state, and revoking it. */
function KeyList(props: { ctx: DashContext; keys: ApiKeyRow[] }) {
  const { ctx } = props
  const t = ctx.t
  const col = keyColumns(ctx)
  if (props.keys.length === 0) return <p class="muted">{t('keysNone')}</p>
  return (
    <StackTable
      columns={[
        { label: col.name },
        { label: col.scope },
        { label: col.owner },
        { label: col.created },
        { label: col.used },
        { label: col.state },
        { label: col.actions },
      ]}
    >
      {props.keys.map((k) => (
        <KeyRow ctx={ctx} apiKey={k} />
      ))}
    </StackTable>
  )
}

/** The key table's column headings. */
function keyColumns(ctx: DashContext) {
  const t = ctx.t
  return {
    name: t('keysColName'),
    scope: t('keysColScope'),
    owner: t('keysColOwner'),
    created: t('keysColCreated'),
    used: t('keysColUsed'),
    state: t('keysColState'),
    actions: t('keysColActions'),
  }
}

/** One key's row of the table. */
function KeyRow(props: { ctx: DashContext; apiKey: ApiKeyRow }) {
  const { ctx, apiKey: k } = props
  const t = ctx.t
  const col = keyColumns(ctx)
  return (
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
        {k.lastUsedAt === null ? t('keysNeverUsed') : formatDateTime(k.lastUsedAt, ctx.lang)}
      </Cell>
      <KeyState ctx={ctx} label={col.state} revokedAt={k.revokedAt} />
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
  )
}

/** A key's state cell: active, or revoked and when. */
function KeyState(props: { ctx: DashContext; label: string; revokedAt: number | null }) {
  const t = props.ctx.t
  return (
    <Cell label={props.label} data-revoked={String(props.revokedAt !== null)}>
      {props.revokedAt === null ? (
        <span class="badge paid">{t('keysActive')}</span>
      ) : (
        <>
          <span class="badge inactive">{t('keysRevokedAt')}</span>
          <span class="sub">{formatDateTime(props.revokedAt, props.ctx.lang)}</span>
        </>
      )}
    </Cell>
  )
}

/** The form for a new key: its name, read or write, and the store's or the signed-in person's. */
function NewKeyForm(props: {
  ctx: DashContext
  form: KeyForm
  errors: KeyErrors
  canActForMe: boolean
}) {
  const { ctx, form, errors } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="new-key-title">
      <h2 id="new-key-title">{t('keysNew')}</h2>
      {Object.keys(errors).length > 0 ? (
        <p class="alert" role="alert">
          {t('fixErrors')}
        </p>
      ) : null}
      <form method="post" action="/dashboard/keys" novalidate>
        <CsrfField ctx={ctx} />
        <Field
          id="key-name"
          errorId="name"
          label={t('keysFieldName')}
          type="text"
          attrs={{ name: 'name', value: form.name, dir: 'auto', maxlength: 80, required: true }}
          hint={t('keysNameHint')}
          error={errors.name}
        />
        <Choices id="scope" legend={t('keysFieldScope')} error={errors.scope}>
          <Radio
            name="scope"
            value="read"
            checked={form.scope !== 'write'}
            text={t('keysScopeRead')}
          />
          <Radio
            name="scope"
            value="write"
            checked={form.scope === 'write'}
            text={t('keysScopeWrite')}
          />
        </Choices>
        <Choices id="owner" legend={t('keysFieldOwner')} error={errors.owner}>
          <Radio
            name="owner"
            value="store"
            checked={form.owner !== 'me'}
            text={t('keysOwnerStore')}
          />
          {props.canActForMe ? (
            <Radio name="owner" value="me" checked={form.owner === 'me'} text={t('keysOwnerMe')} />
          ) : (
            <p class="hint muted">{t('keysOwnerStoreOnly')}</p>
          )}
        </Choices>
        <div class="actions">
          <button type="submit">{t('keysCreate')}</button>
        </div>
      </form>
    </section>
  )
}

/** One choice of the form's radio groups. */
function Radio(props: { name: string; value: string; checked: boolean; text: string }) {
  return (
    <Check type="radio" attrs={{ name: props.name, value: props.value, checked: props.checked }}>
      <span>{props.text}</span>
    </Check>
  )
}
