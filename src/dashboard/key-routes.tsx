/**
 * The API keys page (/dashboard/keys): the list, a form for a new key (shown once, on the answer
 * to the form, never in an address or a later page) and revoking. Keys are made and revoked by
 * the same functions the API uses.
 */
import { Hono } from 'hono'
import { type KeyForm, KeysPage } from '../../views/dashboard/keys-page.js'
import { DashMessagePage } from '../../views/dashboard/layout.js'
import { createApiKeyBody } from '../api/api-keys/schemas.js'
import { createApiKey, keyDetail } from '../auth/api-keys.js'
import { auditRequest } from '../auth/audit-request.js'
import { principalId } from '../auth/principal.js'
import { listApiKeys, revokeApiKey } from '../data/api-keys.js'
import { readForm } from '../lib/form-body.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import type { DashKey } from './messages.js'

const LIST = '/dashboard/keys'

/** The signed-in person's id, when a person (not the admin token) is signed in. */
function personOf(c: DashC): string | null {
  const principal = c.get('principal')
  return principal?.kind === 'user' ? principal.userId : null
}

async function page(
  c: DashC,
  status: 200 | 201 | 400,
  extra: {
    form?: KeyForm
    errors?: Partial<Record<keyof KeyForm, string>>
    created?: { name: string; text: string }
    notice?: string
  } = {},
) {
  const keys = await listApiKeys(c.get('db'))
  const ctx = { ...dashContext(c), switchPath: LIST }
  return c.html(
    <KeysPage
      ctx={ctx}
      keys={keys}
      form={extra.form ?? { name: '', scope: 'read', owner: 'store' }}
      errors={extra.errors ?? {}}
      canActForMe={personOf(c) !== null}
      created={extra.created}
      notice={extra.notice ?? doneNotice(c)}
    />,
    status,
  )
}

const DONE: Record<string, DashKey> = { revoked: 'keysRevoked', already: 'keysAlreadyRevoked' }
function doneNotice(c: DashC): string | undefined {
  const key = DONE[c.req.query('done') ?? '']
  return key ? c.get('dt')(key) : undefined
}

export const keyRoutes = new Hono<DashEnv>()

keyRoutes.get('/keys', (c) => page(c, 200))

keyRoutes.post('/keys', async (c) => {
  const raw = await readForm(c)
  const text = (name: string) => (typeof raw[name] === 'string' ? (raw[name] as string) : '')
  const form: KeyForm = { name: text('name'), scope: text('scope'), owner: text('owner') }
  const parsed = createApiKeyBody.safeParse({
    name: form.name,
    scope: form.scope,
    owner: form.owner === '' ? 'store' : form.owner,
  })
  const t = c.get('dt')
  const errors: Partial<Record<keyof KeyForm, string>> = {}
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0] ?? '')
    if (field === 'name') errors.name = t('keysErrName')
    if (field === 'scope') errors.scope = t('keysErrScope')
    if (field === 'owner') errors.owner = t('keysErrOwner')
  }
  const userId = parsed.success && parsed.data.owner === 'me' ? personOf(c) : null
  if (parsed.success && parsed.data.owner === 'me' && userId === null)
    errors.owner = t('keysOwnerStoreOnly')
  if (!parsed.success || Object.keys(errors).length > 0) return page(c, 400, { form, errors })
  const { key, text: secret } = await createApiKey(c.var, {
    name: parsed.data.name,
    scope: parsed.data.scope,
    userId,
    createdBy: principalId(c.get('principal')!),
  })
  await auditRequest(c, {
    action: 'key_created',
    target: { kind: 'api_key', id: key.id },
    detail: keyDetail(key),
  })
  return page(c, 201, { created: { name: key.name, text: secret } })
})

keyRoutes.post('/keys/:id/revoke', async (c) => {
  const result = await revokeApiKey(c.get('db'), c.req.param('id'), c.get('clock')())
  if (!result) {
    const ctx = dashContext(c)
    return c.html(
      <DashMessagePage
        ctx={ctx}
        title={ctx.t('notFoundTitle')}
        text={ctx.t('keysNotFound')}
        action={{ href: LIST, label: ctx.t('keysTitle') }}
      />,
      404,
    )
  }
  if (result.revokedNow)
    await auditRequest(c, {
      action: 'key_revoked',
      target: { kind: 'api_key', id: result.key.id },
      detail: keyDetail(result.key),
    })
  return c.redirect(`${LIST}?done=${result.revokedNow ? 'revoked' : 'already'}`, 303)
})
