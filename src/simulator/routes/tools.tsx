/** The simulator's own endpoints: public key, stylesheet, inspector and fault switches. */
import { Hono } from 'hono'
import type { SimContext } from '../context.js'
import { faultSettingsSchema } from '../faults.js'
import { inspectState } from '../inspect.js'
import { firstIssue } from '../validation.js'
import { InspectPage } from '../views/inspect-page.js'
import { SIMULATOR_CSS } from '../views/styles.js'
import { renderPage } from './render.js'

const SECTIONS = ['transactions', 'webhooks', 'operations', 'invoices'] as const

/** Public key, assets, `/_inspect` and `/_faults`. */
export function toolRoutes(ctx: SimContext): Hono {
  const app = new Hono()

  app.get('/gateway-public-key.pem', (c) =>
    c.body(ctx.config.publicKeyPem, 200, {
      'content-type': 'application/x-pem-file; charset=utf-8',
    }),
  )
  app.get('/assets/simulator.css', (c) =>
    c.body(SIMULATOR_CSS, 200, {
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  )

  app.get('/_inspect', async (c) =>
    renderPage(
      c,
      <InspectPage
        base={ctx.config.basePath}
        snapshot={await inspectState(ctx)}
        faults={ctx.faults.get()}
      />,
    ),
  )
  for (const section of SECTIONS) {
    app.get(`/_inspect/${section}.json`, async (c) => c.json((await inspectState(ctx))[section]))
  }

  app.get('/_faults', (c) => c.json(ctx.faults.get()))
  app.post('/_faults', async (c) => {
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      return c.json({ error: 'The body must be JSON' }, 400)
    }
    const parsed = faultSettingsSchema.safeParse(body)
    if (!parsed.success) return c.json({ error: firstIssue(parsed.error, body) }, 400)
    ctx.faults.set(parsed.data)
    return c.json(ctx.faults.get())
  })
  app.delete('/_faults', (c) => {
    ctx.faults.clear()
    return c.json(ctx.faults.get())
  })

  return app
}
