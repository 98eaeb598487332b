// Ad-hoc: serve Paylinks with one link over loopback for profiling under load (not part of npm run bench).
import { serve } from '@hono/node-server'
import { startPaylinks } from '../test/support/harness.js'
import { makeLink } from '../test/support/links.js'

const p = await startPaylinks()
const link = await makeLink(p, {
  title: 'Bench',
  amount: 1500,
  language: 'fr',
  description: 'Commande de test',
})
const server = serve({ fetch: p.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`http://127.0.0.1:${info.port}/l/${link.slug}`)
})
setTimeout(
  () => {
    server.close()
    void p.close().then(() => process.exit(0))
  },
  Number(process.argv[2] ?? 12_000),
)
