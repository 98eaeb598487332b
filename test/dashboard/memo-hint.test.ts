/** The link form says in plain words what of the memo reaches the bank's card page. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { signedIn } from './helpers.js'

let p: Paylinks
beforeEach(async () => {
  p = await startPaylinks()
})
afterEach(async () => {
  await p.close()
})

describe('the memo field of the link form', () => {
  it('explains the 28 bytes, Arabic counting double, in each language, tied to its field', async () => {
    const browser = await signedIn(p)
    const expected = {
      en: '14 Arabic letters, because an Arabic letter counts double',
      fr: '14 lettres arabes, car une lettre arabe compte double',
      ar: 'لأن الحرف العربي يُحسب مرتين',
    }
    for (const [lang, words] of Object.entries(expected)) {
      const html = await (await browser.get(`/dashboard/links/new?lang=${lang}`)).text()
      expect(html).toContain(words)
      expect(html).toMatch(/<input[^>]*id="memo"[^>]*aria-describedby="memo-hint"/)
      expect(html).toContain('<p id="memo-hint" class="hint muted">')
    }
  })
})
