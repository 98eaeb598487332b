/**
 * The gateway client on its own, against the gateway simulator running in-process: no network,
 * no credentials. Run it with `npx tsx examples/client.ts`. Against the real gateway, drop the
 * simulator and the `fetch` option and pass your own apiUrl, apiKey, secretKey and account.
 */
import {
  createGatewayClient,
  dzdToCentimes,
  GatewayError,
  ValidationError,
} from '../src/client/index.js'
import {
  createSimulator,
  SIMULATOR_API_KEY,
  SIMULATOR_MERCHANT_ACCOUNT,
  SIMULATOR_SECRET_SEED,
} from '../src/simulator/index.js'

const sim = createSimulator({ publicUrl: 'http://gateway.test', seed: 'example' })
const account = SIMULATOR_MERCHANT_ACCOUNT

const gateway = createGatewayClient({
  siteUrl: sim.urls.siteUrl,
  apiUrl: sim.urls.apiUrl,
  apiKey: SIMULATOR_API_KEY,
  secretKey: SIMULATOR_SECRET_SEED,
  // The simulator answers in-process; leave this out to use the global fetch.
  fetch: (input, init) => sim.app.fetch(new Request(input, init)),
})
console.log(`client: ${gateway}`)

// 1. A card payment: create it, send the customer to payment_url, then check it.
const payment = await gateway.card.create({
  account,
  amount: '1500.00',
  full_name: 'Amina Benali',
  phone: '+213555123456',
  email: 'amina@example.dz',
  return_url: 'https://shop.example/orders/42/return',
  language: 'fr',
  memo: 'Commande 42',
  keep_return_url: true,
})
console.log(`pay at: ${payment.payment_url} (order ${payment.cib_transaction_id})`)

const expected = { amount: dzdToCentimes('1500.00'), account }
const before = await gateway.card.check(payment.cib_transaction_id, expected)
console.log(`before paying: ${before.outcome}`)

await sim.completePayment(payment.cib_transaction_id, 'approved') // what the card page would do
const after = await gateway.card.check(payment.cib_transaction_id, expected)
console.log(`after paying: ${after.outcome}, ${after.message}, approval ${after.approvalCode}`)

// 2. The direct interface: a phone top-up and the product catalog.
const topUp = await gateway.direct.operations.phone({
  amount: 100,
  operator: 'mobilis',
  offer: 'prepaid',
  phone: '0661234567',
})
console.log(`top-up: ${topUp.status}, operation ${topUp.operation_id}`)
const products = await gateway.direct.products.list({ search: 'PUBG' })
console.log(`products matching PUBG: ${products.count}`)

// 3. The API-key interface: the operation history.
const history = await gateway.v1.operations.list({ per_page: 5 })
console.log(`API-key history answered with: ${Object.keys(history).join(', ')}`)

// 4. Mistakes are caught before anything is sent.
try {
  await gateway.direct.operations.internet({ offer: 'IDOOM 4G 700', phone: '031234567' })
} catch (error) {
  if (error instanceof ValidationError) console.log('rejected locally:', error.fields)
  else if (error instanceof GatewayError) console.log('gateway error:', error.message)
  else throw error
}
