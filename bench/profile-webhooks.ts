// Ad-hoc: serve Paylinks with approved payments and write webhook bodies for a load generator to
// post (`node --cpu-prof --import tsx bench/profile-webhooks.ts`; not part of npm run bench).
import { writeFileSync } from 'node:fs'
import { serve } from '@hono/node-server'
import { startCheckpointer } from '../src/node/checkpointer.js'
import { startPayment } from '../test/flows/support.js'
import { startPaylinks } from '../test/support/harness.js'
import { makeLink } from '../test/support/links.js'
import { webhookBodies } from './scenarios.js'

const p = await startPaylinks()
startCheckpointer(p.sqlite)
p.simulator.faults.set({ webhooks: { never: true } })
const link = await makeLink(p, { title: 'Bench', amount: 1500 })
for (let i = 0; i < 300; i++) {
  const { tx } = await startPayment(p, link.slug, {}, { 'x-test-ip': `ip-${i}` })
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
}
const payloads = [...p.simulator.state.deliveries.values()].map((d) => d.payload)
const bodies = webhookBodies(payloads as Record<string, unknown>[], 200_000)
writeFileSync('/tmp/webhook-bodies.json', JSON.stringify(bodies))
const server = serve({ fetch: p.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`http://127.0.0.1:${info.port}/webhooks/gateway`)
})
setTimeout(
  () => {
    server.close()
    void p.close().then(() => process.exit(0))
  },
  Number(process.argv[2] ?? 20_000),
)
