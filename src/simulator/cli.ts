/**
 * Runs the gateway simulator on its own: `npm run simulator -- --port 9090 [--host 127.0.0.1]
 * [--public-url http://…] [--seed text]`. Prints its URLs, credentials and test cards.
 */
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import {
  createSimulator,
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_SECRET_SEED,
  type Simulator,
  TEST_CARDS,
  TEST_OTP,
} from './index.js'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '9090' },
    host: { type: 'string', default: '127.0.0.1' },
    'public-url': { type: 'string' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})

if (values.help) {
  console.log(
    'Usage: npm run simulator -- [--port 9090] [--host 127.0.0.1] [--public-url URL] [--seed TEXT]',
  )
  process.exit(0)
}

const port = Number(values.port)
if (!/^\d+$/.test(values.port) || port > 65535) {
  console.error(`--port must be a port number, not "${values.port}"`)
  process.exit(2)
}
const host = values.host

function describe(sim: Simulator, listening: string): string {
  return [
    `Gateway simulator listening on ${listening} — SIMULATOR, no real money`,
    '',
    `  site_url (direct interface)  ${sim.urls.siteUrl}`,
    `  base_url (API-key interface) ${sim.urls.apiUrl}`,
    `  card page                    ${sim.urls.siteUrl}/pay/<order id>  (each transaction's payment_url)`,
    `  inspector                    ${sim.urls.inspectorUrl}`,
    `  faults                       ${sim.urls.siteUrl}/_faults`,
    `  public key (verify with it)  ${sim.urls.publicKeyUrl}`,
    '',
    `  X-API-Key       ${sim.config.apiKey}`,
    `  encrypted_sk    ${SIMULATOR_SECRET_SEED}  (any checksum-valid seed works too)`,
    `  account         ${SIMULATOR_MERCHANT_ACCOUNT}`,
    `  3-D Secure OTP  ${TEST_OTP}`,
    '',
    '  Test cards (number, expiry, CVV → result):',
    ...TEST_CARDS.map((c) => `    ${c.number}  ${c.expiry}  ${c.cvv}  → ${c.label}`),
  ].join('\n')
}

// The simulator needs its public URL, which with --port 0 is known only once listening.
let sim: Simulator | undefined
const server = serve(
  {
    fetch: (request, env) =>
      sim ? sim.app.fetch(request, env) : new Response('Starting', { status: 503 }),
    port,
    hostname: host,
  },
  () => {
    const actual = (server.address() as AddressInfo).port
    const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
    const hostPart = shownHost.includes(':') ? `[${shownHost}]` : shownHost
    const publicUrl = values['public-url'] ?? `http://${hostPart}:${actual}`
    sim = createSimulator({ publicUrl, ...(values.seed ? { seed: values.seed } : {}) })
    console.log(describe(sim, `${host}:${actual}`))
  },
)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close()
    process.exit(0)
  })
}
