// Ad-hoc: time in-process checkout page renders (not part of npm run bench).

import { startPaylinks } from '../test/support/harness.js'
import { makeLink } from '../test/support/links.js'

const p = await startPaylinks()
const link = await makeLink(p, {
  title: 'Bench',
  amount: 1500,
  language: 'fr',
  description: 'Commande de test',
})
const path = process.argv[2] === 'health' ? '/healthz' : `/l/${link.slug}`
for (let i = 0; i < 500; i++) await (await p.app.request(path)).text()
const n = 3000
const t0 = performance.now()
for (let i = 0; i < n; i++) await (await p.app.request(path)).text()
console.log(path, (((performance.now() - t0) / n) * 1000).toFixed(1), 'µs per request')
await p.close()
