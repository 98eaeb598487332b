/** `/api/v1/api-keys`: create, list and revoke API keys; the key is in the creating answer only. */
import type { Context } from 'hono'
import { Hono } from 'hono'
import type * as z from 'zod'
import { createApiKey, keyDetail } from '../../auth/api-keys.js'
import { auditRequest } from '../../auth/audit-request.js'
import { principalId } from '../../auth/principal.js'
import { listApiKeys, revokeApiKey } from '../../data/api-keys.js'
import type { AppEnv } from '../../deps.js'
import { jsonBodyLimit, readJsonBody } from '../body.js'
import { apiError, invalidFields } from '../errors.js'
import { limitLinkWrites } from '../rate-limit.js'
import { pathText } from '../zod-problems.js'
import { toApiKeyObject } from './objects.js'
import { createApiKeyBody } from './schemas.js'

export const apiKeyApiRoutes = new Hono<AppEnv>()

/** One English message per bad field. */
function fieldsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = Object.create(null)
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out[key] ??= `${key} is not a field of this body`
      continue
    }
    const path = pathText(issue.path)
    if (path === '') out.body ??= 'the body must be a JSON object'
    else out[path] ??= `${path} ${issue.message}`
  }
  return out
}

const noSuchKey = (c: Context<AppEnv>) => apiError(c, 404, 'not_found', 'No API key has this id.')

apiKeyApiRoutes.get('/api-keys', async (c) => {
  const rows = await listApiKeys(c.get('db'))
  return c.json({ data: rows.map(toApiKeyObject) })
})

apiKeyApiRoutes.post('/api-keys', limitLinkWrites(), jsonBodyLimit(), async (c) => {
  const body = await readJsonBody(c)
  if (!body.ok) return body.response
  const parsed = createApiKeyBody.safeParse(body.body)
  if (!parsed.success) return invalidFields(c, 'invalid_body', fieldsOf(parsed.error))
  const principal = c.get('principal')!
  let userId: string | null = null
  if (parsed.data.owner === 'me') {
    userId = principal.kind === 'admin' ? null : principal.userId
    if (userId === null)
      return invalidFields(c, 'invalid_body', {
        owner:
          'owner me needs a person behind the request; the admin token and store keys make store keys',
      })
  }
  const { key, text } = await createApiKey(c.var, {
    name: parsed.data.name,
    scope: parsed.data.scope,
    userId,
    createdBy: principalId(principal),
  })
  await auditRequest(c, {
    action: 'key_created',
    target: { kind: 'api_key', id: key.id },
    detail: keyDetail(key),
  })
  return c.json({ ...toApiKeyObject(key), key: text }, 201)
})

apiKeyApiRoutes.delete('/api-keys/:id', limitLinkWrites(), async (c) => {
  const result = await revokeApiKey(c.get('db'), c.req.param('id'), c.get('clock')())
  if (!result) return noSuchKey(c)
  if (result.revokedNow)
    await auditRequest(c, {
      action: 'key_revoked',
      target: { kind: 'api_key', id: result.key.id },
      detail: keyDetail(result.key),
    })
  return c.json(toApiKeyObject(result.key))
})
