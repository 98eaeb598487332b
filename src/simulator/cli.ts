/**
 * Runs the gateway simulator on its own: `npm run simulator -- --port 9090 [--host 127.0.0.1]
 * [--public-url http://…] [--seed text]`. Prints its URLs, credentials and test cards.
 */
import { parseArgs } from 'node:util'
import { serve } from '@hono/node-server'
import {
  createSimulator,
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_SECRET_SEED,
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
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not "${values.port}"`)
  process.exit(2)
}
const host = values.host
const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
const publicUrl =
  values['public-url'] ?? `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`
const sim = createSimulator({ publicUrl, ...(values.seed ? { seed: values.seed } : {}) })

const server = serve({ fetch: sim.app.fetch, port, hostname: host }, (info) => {
  const lines = [
    `Gateway simulator listening on ${host}:${info.port} — SIMULATOR, no real money`,
    '',
    `  site_url (direct interface)  ${sim.urls.siteUrl}`,
    `  base_url (API-key interface) ${sim.urls.apiUrl}`,
    `  card page                    ${sim.urls.siteUrl}/pay/<order id>  (payment_url of each transaction)`,
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
  ]
  console.log(lines.join('\n'))
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close()
    process.exit(0)
  })
}
