import { afterEach, describe, expect, it } from 'vitest'
import { dashTranslator } from '../../src/dashboard/messages.js'
import { signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'

let p: Paylinks
afterEach(async () => {
  await p.close()
})

const noticeOf = (html: string) => /<p class="muted" id="mail-off">([^<]*)<\/p>/.exec(html)?.[1]

describe('the dashboard says whether e-mail receipts are sent', () => {
  it('tells how to turn them on without SMTP_URL, in each language', async () => {
    p = await startPaylinks()
    const browser = await signedIn(p)
    for (const lang of ['ar', 'fr', 'en'] as const) {
      // The overview (the first page) and the links list both say it.
      for (const page of ['/dashboard', '/dashboard/links']) {
        const html = await (await browser.get(`${page}?lang=${lang}`)).text()
        expect(noticeOf(html)).toBe(dashTranslator(lang)('mailOff'))
        expect(html).toContain('SMTP_URL')
      }
    }
  })

  it('says nothing once a transport sends mail, and that it is off while none does', async () => {
    p = await startPaylinks({ env: { SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: 'a@b.dz' } })
    const browser = await signedIn(p)
    expect(noticeOf(await (await browser.get('/dashboard/links')).text())).toBeUndefined()
    expect(noticeOf(await (await browser.get('/dashboard')).text())).toBeUndefined()
    // A runtime that could not make a transport sends none: the notice says mail is off.
    p.deps.mailTransport = undefined
    expect(noticeOf(await (await browser.get('/dashboard/links?lang=en')).text())).toBe(
      dashTranslator('en')('mailOff'),
    )
  })
})
