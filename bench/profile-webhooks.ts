// Ad-hoc: serve Paylinks with approved payments and write webhook bodies for a load generator to
// post (`node --import tsx bench/profile-webhooks.ts [payments] [bodies]`; not part of npm run
// bench). Once the URL is printed a CPU profile runs; SIGUSR2 writes it to
// /tmp/webhooks-<n>.cpuprofile and starts the next one, SIGTERM writes the last and stops. The
// first delivery of each payment is confirmed through the simulator in the same process, as in
// the bench's first round, so profile that and the deliveries for paid payments apart.
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { serve } from '@hono/node-server'
import { startCheckpointer } from '../src/runtime/node/checkpointer.js'
import { startPayment } from '../test/flows/support.js'
import { startPaylinks } from '../test/support/harness.js'
import { makeLink } from '../test/support/links.js'
import { webhookBodies } from './scenarios.js'

const [payments, count] = [Number(process.argv[2] ?? 300), Number(process.argv[3] ?? 50_000)]
const p = await startPaylinks()
const checkpointer = startCheckpointer(p.sqlite)
p.simulator.faults.set({ webhooks: { never: true } })
const link = await makeLink(p, { title: 'Bench', amount: 1500 })
for (let i = 0; i < payments; i++) {
  const { tx } = await startPayment(p, link.slug, {}, { 'x-test-ip': `ip-${i}` })
  await p.simulator.completePayment(tx.cibTransactionId, 'approved')
}
const payloads = [...p.simulator.state.deliveries.values()].map((d) => d.payload)
writeFileSync(
  '/tmp/webhook-bodies.json',
  JSON.stringify(webhookBodies(payloads as Record<string, unknown>[], count)),
)
const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.start')
let written = 0
const writeProfile = async () => {
  await p.settle()
  const { profile } = await session.post('Profiler.stop')
  const file = `/tmp/webhooks-${++written}.cpuprofile`
  writeFileSync(file, JSON.stringify(profile))
  console.log(file)
}
const server = serve({ fetch: p.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  console.log(`http://127.0.0.1:${info.port}/webhooks/gateway`)
})
process.on('SIGUSR2', async () => {
  await writeProfile()
  await session.post('Profiler.start')
})
process.on('SIGTERM', async () => {
  await writeProfile()
  server.close()
  checkpointer.stop()
  await p.close()
  process.exit(0)
})
