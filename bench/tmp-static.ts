import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { makeLink } from '../test/flows/support.js'
import { startPaylinks } from '../test/support/harness.js'

const p = await startPaylinks()
const link = await makeLink(p, {
  title: 'Bench',
  amount: 1500,
  language: 'fr',
  description: 'Commande de test',
})
const res = await p.app.request(`/l/${link.slug}`)
const body = await res.text()
const headers: Record<string, string> = {}
res.headers.forEach((v, k) => {
  headers[k] = v
})
console.error('body bytes', Buffer.byteLength(body), 'header bytes', JSON.stringify(headers).length)
const app = new Hono()
const buf = Buffer.from(body)
app.get('/hello', (c) => c.text('Hello Hono!'))
app.get('/same', (c) => c.body(body, 200, headers))
app.get('/same-buf', (c) => c.body(buf, 200, headers))
app.get('/body-only', (c) => c.html(body))
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  console.log(`http://127.0.0.1:${info.port}`),
)
setTimeout(() => process.exit(0), 60_000)
