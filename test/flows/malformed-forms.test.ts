/**
 * Form bodies that no form sends: a multipart body that does not parse, a boundary missing, a
 * content type no form uses. Every form route answers them with a 4xx page and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rowCount } from '../api/helpers.js'
import { signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { makeLink, storeLink } from '../support/links.js'

let p: Paylinks
let slug: string
let linkId: string
let caller = 0

beforeAll(async () => {
  p = await startPaylinks()
  slug = (await makeLink(p, { title: 'Cadeau', amount: 1500 })).slug
  linkId = (await storeLink(p)).id
})
afterAll(async () => {
  await p.close()
})

const BODIES: [string, string, string][] = [
  ['multipart without a boundary', 'multipart/form-data', 'name=Amina'],
  ['multipart that does not parse', 'multipart/form-data; boundary=xyz', '--xyz\r\ngarbage'],
  [
    'multipart with a broken part',
    'multipart/form-data; boundary=xyz',
    '--xyz\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--xyz--',
  ],
  ['a content type no form uses', 'application/json', '{"name":"Amina"}'],
]

describe('malformed form bodies', () => {
  for (const [what, type, body] of BODIES) {
    it(`answers ${what} with a 4xx on every form route, and changes nothing`, async () => {
      const before = {
        payments: rowCount(p, 'payments'),
        links: rowCount(p, 'links'),
      }
      const browser = await signedIn(p)
      const targets = [
        { path: `/l/${slug}`, headers: {} as Record<string, string> },
        { path: '/dashboard/login', headers: {} },
        { path: '/dashboard/links', headers: { cookie: browser.jar.header() } },
        { path: `/dashboard/links/${linkId}`, headers: { cookie: browser.jar.header() } },
      ]
      for (const target of targets) {
        const res = await p.app.request(target.path, {
          method: 'POST',
          body,
          headers: {
            'content-type': type,
            'x-test-ip': `malformed-${++caller}`,
            ...target.headers,
          },
        })
        expect(`${target.path} ${res.status}`).toMatch(/ 4\d\d$/)
      }
      expect(rowCount(p, 'payments')).toBe(before.payments)
      expect(rowCount(p, 'links')).toBe(before.links)
    })
  }
})
